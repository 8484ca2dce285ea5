-- A UTXO row never moves back to an older state. The UTXO list answers each item as it was when the
-- page was read; a transaction walk of the same run may have stored its spend before this page
-- commits (utxoDerivation.ts, propagateUtxoSpends.sql). So a row this batch stored unspent takes the
-- stored spend of the same chain (the consuming transaction's copy, in this chain's shape).
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
  JOIN {stage} AS s ON s.network = t.network AND s.blockchain_id = t.blockchain_id AND s.utxo_id = t.utxo_id
  WHERE t.direction = 'consumed' AND s.consuming_tx_hash IS NULL
  QUALIFY row_number() OVER (PARTITION BY t.network, t.blockchain_id, t.utxo_id ORDER BY t.tx_hash, t.item_index) = 1
) AS c
WHERE u.network = c.network
  AND u.blockchain_id = c.blockchain_id
  AND u.utxo_id = c.utxo_id
  AND u.consuming_tx_hash IS NULL
  AND c.consuming_tx_hash IS NOT NULL;

-- The rows of this batch the update moved forward (they now differ from the staged row) may carry the
-- spend's block time: their partitions as they were merged and as they are now go to the next export
-- (activities/warehouse/lakeKeys.ts; the merge marked the staged rows that changed), when a column of
-- the lake's pn_utxos files changed (lake layout 4: not the spend columns), and the spend's day of
-- pn_utxos_consumed (the staged row was unspent).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT table_name, k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT 'pn_utxos' AS table_name, unnest([{lake_key:pn_utxos:u:network,blockchain_id:block_timestamp}, {lake_key:pn_utxos:s:network,blockchain_id:block_timestamp}]) AS k
  FROM pn_utxos AS u, {stage} AS s
  WHERE u.network = s.network AND u.blockchain_id = s.blockchain_id AND u.utxo_id = s.utxo_id
    AND u.consuming_tx_hash IS DISTINCT FROM s.consuming_tx_hash
    AND row(u.addresses, u.amount, u.asset_id, u.asset_name, u.asset_symbol, u.asset_denomination, u.asset_type, u.asset_amount, u.tx_hash, u.output_index, u.block_number, u.block_timestamp, u.created_on_chain_id, u.consumed_on_chain_id, u.utxo_bytes, u.platform_locktime, u.stakeable_locktime, u.staked, u.threshold, u.reward_type, u.utxo_type, u.utxo_start_timestamp, u.utxo_end_timestamp, u.creation_tx_hash, u.locktime, u.timestamp, u.group_id, u.payload) IS DISTINCT FROM row(s.addresses, s.amount, s.asset_id, s.asset_name, s.asset_symbol, s.asset_denomination, s.asset_type, s.asset_amount, s.tx_hash, s.output_index, s.block_number, s.block_timestamp, s.created_on_chain_id, s.consumed_on_chain_id, s.utxo_bytes, s.platform_locktime, s.stakeable_locktime, s.staked, s.threshold, s.reward_type, s.utxo_type, s.utxo_start_timestamp, s.utxo_end_timestamp, s.creation_tx_hash, s.locktime, s.timestamp, s.group_id, s.payload)
  UNION
  SELECT DISTINCT 'pn_utxos_consumed', {lake_key:pn_utxos_consumed:u:network,blockchain_id:consuming_block_timestamp} AS k
  FROM pn_utxos AS u, {stage} AS s
  WHERE u.network = s.network AND u.blockchain_id = s.blockchain_id AND u.utxo_id = s.utxo_id
    AND u.consuming_tx_hash IS DISTINCT FROM s.consuming_tx_hash
);
