-- pn_utxos as the warehouse holds it, from the lake (layout 4): the files' rows, with the spend of each
-- spent UTXO taken from pn_utxos_consumed (activities/warehouse/lakeViews.ts, docs/schema.md "Reading
-- the lake"). A lake of layout 3 has no pn_utxos_consumed yet: its files hold the spends themselves.
SELECT b.* REPLACE (
  CASE WHEN s.utxo_id IS NULL THEN b.consuming_tx_hash ELSE s.consuming_tx_hash END AS consuming_tx_hash,
  CASE WHEN s.utxo_id IS NULL THEN b.consuming_block_number ELSE s.consuming_block_number END AS consuming_block_number,
  CASE WHEN s.utxo_id IS NULL THEN b.consuming_block_timestamp ELSE s.consuming_block_timestamp END AS consuming_block_timestamp,
  CASE WHEN s.utxo_id IS NULL THEN b.consuming_tx_timestamp ELSE s.consuming_tx_timestamp END AS consuming_tx_timestamp,
  CASE WHEN s.utxo_id IS NULL THEN b.credentials ELSE s.credentials END AS credentials
)
FROM {base} AS b
LEFT JOIN {pn_utxos_consumed} AS s
  ON s.network = b.network AND s.blockchain_id = b.blockchain_id AND s.utxo_id = b.utxo_id
