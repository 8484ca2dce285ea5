-- A UTXO row never moves back to an older state. The UTXO list answers each item as it was when the
-- page was read; a transaction walk of the same run may have stored its spend before this page
-- commits (utxoDerivation.ts, propagateUtxoSpends.sql). So a row this batch stored unspent takes
-- the stored spend of the same chain (the consuming transaction's copy, in this chain's shape). A
-- spend is never older than the UTXO it spends: the copies are looked for among the transactions
-- since the batch's oldest UTXO (tx_block_timestamp; those of a transaction without a time in a
-- branch of their own), by their key columns first and then fetched by row id, so a page of old
-- UTXOs with no stored spend (the usual page) reads the key columns, not every column (a 30x
-- warehouse, 1,024 UTXOs from across its history: 295 ms to 43).
UPDATE pn_utxos AS u
SET tx_hash = c.utxo_tx_hash,
    addresses = c.addresses,
    amount = c.amount,
    asset_id = c.asset_id,
    asset_name = c.asset_name,
    asset_symbol = c.asset_symbol,
    asset_denomination = c.asset_denomination,
    asset_type = c.asset_type,
    asset_amount = c.asset_amount,
    output_index = c.output_index,
    block_number = c.block_number,
    block_timestamp = c.block_timestamp,
    created_on_chain_id = c.created_on_chain_id,
    consumed_on_chain_id = c.consumed_on_chain_id,
    consuming_tx_hash = c.consuming_tx_hash,
    consuming_block_number = c.consuming_block_number,
    consuming_block_timestamp = c.consuming_block_timestamp,
    utxo_bytes = c.utxo_bytes,
    platform_locktime = c.platform_locktime,
    stakeable_locktime = c.stakeable_locktime,
    staked = c.staked,
    threshold = c.threshold,
    reward_type = c.reward_type,
    utxo_type = c.utxo_type,
    utxo_start_timestamp = c.utxo_start_timestamp,
    utxo_end_timestamp = c.utxo_end_timestamp,
    creation_tx_hash = c.creation_tx_hash,
    consuming_tx_timestamp = c.consuming_tx_timestamp,
    locktime = c.locktime,
    timestamp = c.timestamp,
    group_id = c.group_id,
    payload = c.payload,
    credentials = c.credentials
FROM (
  SELECT t.* FROM pn_transaction_utxos AS t
  JOIN (
    SELECT t.rowid AS rid FROM pn_transaction_utxos AS t
    SEMI JOIN {stage} AS s ON s.network = t.network AND s.blockchain_id = t.blockchain_id AND s.utxo_id = t.utxo_id AND s.consuming_tx_hash IS NULL
    WHERE t.direction = 'consumed'
      AND t.tx_block_timestamp >= (SELECT CASE WHEN bool_or(block_timestamp IS NULL) THEN 0 ELSE coalesce(min(block_timestamp), 0) END FROM {stage} WHERE consuming_tx_hash IS NULL)
    UNION ALL
    SELECT t.rowid FROM pn_transaction_utxos AS t
    SEMI JOIN {stage} AS s ON s.network = t.network AND s.blockchain_id = t.blockchain_id AND s.utxo_id = t.utxo_id AND s.consuming_tx_hash IS NULL
    WHERE t.direction = 'consumed' AND t.tx_block_timestamp IS NULL
  ) AS r ON t.rowid = r.rid
  QUALIFY row_number() OVER (PARTITION BY t.network, t.blockchain_id, t.utxo_id ORDER BY t.tx_hash, t.item_index) = 1
) AS c
WHERE u.network = c.network
  AND u.blockchain_id = c.blockchain_id
  AND u.utxo_id = c.utxo_id
  AND u.consuming_tx_hash IS NULL
  AND c.consuming_tx_hash IS NOT NULL;

-- The rows of this batch the update moved forward (they now differ from the staged row, which the
-- merge marked) may carry the spend's block time: their partitions as they are now go to the next
-- export too (activities/warehouse/lakeKeys.ts).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxos', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxos:u:network,blockchain_id:block_timestamp} AS k
  FROM pn_utxos AS u, {stage} AS s
  WHERE u.network = s.network AND u.blockchain_id = s.blockchain_id AND u.utxo_id = s.utxo_id
    AND u.consuming_tx_hash IS DISTINCT FROM s.consuming_tx_hash
);
