-- pn_transaction_utxos as the warehouse holds it, from the lake (layout 3): the files' rows, with the
-- spend of each emitted row taken from pn_utxo_spends (activities/warehouse/lakeViews.ts,
-- docs/schema.md "Reading the lake"). {base} and {spends} name the two tables' files.
SELECT b.* REPLACE (
  CASE WHEN s.tx_hash IS NULL THEN b.consuming_tx_hash ELSE s.consuming_tx_hash END AS consuming_tx_hash,
  CASE WHEN s.tx_hash IS NULL THEN b.consuming_block_number ELSE s.consuming_block_number END AS consuming_block_number,
  CASE WHEN s.tx_hash IS NULL THEN b.consuming_block_timestamp ELSE s.consuming_block_timestamp END AS consuming_block_timestamp,
  CASE WHEN s.tx_hash IS NULL THEN b.consuming_tx_timestamp ELSE s.consuming_tx_timestamp END AS consuming_tx_timestamp,
  CASE WHEN s.tx_hash IS NULL THEN b.consumed_on_chain_id ELSE s.consumed_on_chain_id END AS consumed_on_chain_id,
  CASE WHEN s.tx_hash IS NULL THEN b.credentials ELSE s.credentials END AS credentials
)
FROM {base} AS b
LEFT JOIN {pn_utxo_spends} AS s
  ON b.direction = 'emitted' AND s.network = b.network AND s.blockchain_id = b.blockchain_id AND s.tx_hash = b.tx_hash AND s.item_index = b.item_index
