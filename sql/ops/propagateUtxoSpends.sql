-- A newly stored transaction that consumes UTXOs marks them spent where earlier transactions
-- emitted them (on any chain of the network: imports consume exported UTXOs), as the API now does.
-- A spend on another chain arrives in that chain's UTXO shape, so the emitted row takes the spend in
-- its own shape (generic X/C rows have creation_tx_hash): a PChainUtxo gains the consuming block
-- (number only from a P-chain spend), a generic Utxo consumingTxTimestamp and the credentials (which
-- only an X/C-chain spend carries). consuming_block_timestamp is the spend's time in both shapes.
-- The partitions of the rows the two updates change go to the next export (activities/warehouse/lakeKeys.ts):
-- for pn_utxos both the stored row's and the one it takes from the spend (its block time may differ).
-- Lake layout 3: the lake's pn_transaction_utxos files hold an emitted row's spend columns NULL and
-- pn_utxo_spends holds them, dated by the spend's day (sql/lake/pn_utxo_spends.sql), so an update here
-- changes that table's partitions of the old spend's day (if any) and of the new one, not the old
-- row's file.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxo_spends', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxo_spends:x:network,blockchain_id:consuming_block_timestamp} AS k FROM (
    SELECT e.network, e.blockchain_id, CASE WHEN d.old THEN e.consuming_block_timestamp ELSE c.consuming_block_timestamp END AS consuming_block_timestamp
    FROM pn_transaction_utxos AS e, {stage} AS c, (VALUES (true), (false)) AS d(old)
    WHERE c.direction = 'consumed'
      AND e.direction = 'emitted'
      AND e.network = c.network
      AND e.utxo_id = c.utxo_id
      AND e.consuming_tx_hash IS DISTINCT FROM coalesce(c.consuming_tx_hash, c.tx_hash)
      -- the old day only when the row was spent already
      AND NOT (d.old AND e.consuming_tx_hash IS NULL)
  ) AS x
);
-- Lake layout 4: pn_utxos' files hold the spend columns NULL and pn_utxos_consumed holds them, dated
-- by the spend's day. So the update below changes a pn_utxos file only when the transaction's copy
-- differs in another column, and pn_utxos_consumed's partitions of the old spend's day (if any) and of
-- the new one.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT table_name, k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT 'pn_utxos' AS table_name, unnest([{lake_key:pn_utxos:u:network,blockchain_id:block_timestamp}, {lake_key:pn_utxos:c:network,blockchain_id:block_timestamp}]) AS k
  FROM pn_utxos AS u, {stage} AS c
  WHERE c.direction = 'consumed'
    AND u.network = c.network
    AND u.blockchain_id = c.blockchain_id
    AND u.utxo_id = c.utxo_id
    AND u.consuming_tx_hash IS DISTINCT FROM c.consuming_tx_hash
    AND row(u.addresses, u.amount, u.asset_id, u.asset_name, u.asset_symbol, u.asset_denomination, u.asset_type, u.asset_amount, u.tx_hash, u.output_index, u.block_number, u.block_timestamp, u.created_on_chain_id, u.consumed_on_chain_id, u.utxo_bytes, u.platform_locktime, u.stakeable_locktime, u.staked, u.threshold, u.reward_type, u.utxo_type, u.utxo_start_timestamp, u.utxo_end_timestamp, u.creation_tx_hash, u.locktime, u.timestamp, u.group_id, u.payload) IS DISTINCT FROM row(c.addresses, c.amount, c.asset_id, c.asset_name, c.asset_symbol, c.asset_denomination, c.asset_type, c.asset_amount, c.utxo_tx_hash, c.output_index, c.block_number, c.block_timestamp, c.created_on_chain_id, c.consumed_on_chain_id, c.utxo_bytes, c.platform_locktime, c.stakeable_locktime, c.staked, c.threshold, c.reward_type, c.utxo_type, c.utxo_start_timestamp, c.utxo_end_timestamp, c.creation_tx_hash, c.locktime, c.timestamp, c.group_id, c.payload)
  UNION
  SELECT DISTINCT 'pn_utxos_consumed', {lake_key:pn_utxos_consumed:x:network,blockchain_id:consuming_block_timestamp} AS k FROM (
    SELECT u.network, u.blockchain_id, CASE WHEN d.old THEN u.consuming_block_timestamp ELSE c.consuming_block_timestamp END AS consuming_block_timestamp
    FROM pn_utxos AS u, {stage} AS c, (VALUES (true), (false)) AS d(old)
    WHERE c.direction = 'consumed'
      AND u.network = c.network
      AND u.blockchain_id = c.blockchain_id
      AND u.utxo_id = c.utxo_id
      AND u.consuming_tx_hash IS DISTINCT FROM c.consuming_tx_hash
      -- the old day only when the row was spent already
      AND NOT (d.old AND u.consuming_tx_hash IS NULL)
  ) AS x
);

UPDATE pn_transaction_utxos AS e
SET consuming_tx_hash = coalesce(c.consuming_tx_hash, c.tx_hash),
    consuming_block_number = CASE WHEN e.creation_tx_hash IS NULL THEN c.consuming_block_number END,
    consuming_block_timestamp = c.consuming_block_timestamp,
    consuming_tx_timestamp = CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.consuming_block_timestamp END,
    consumed_on_chain_id = c.consumed_on_chain_id,
    credentials = CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.credentials END
FROM {stage} AS c
WHERE c.direction = 'consumed'
  AND e.direction = 'emitted'
  AND e.network = c.network
  AND e.utxo_id = c.utxo_id
  AND e.consuming_tx_hash IS DISTINCT FROM coalesce(c.consuming_tx_hash, c.tx_hash);

-- The same spends reach pn_utxos: a stored UTXO that a newly stored transaction consumes takes the
-- transaction's copy of it (every field, its spend included), as pn.utxos's own spends walk would
-- upsert it. So a run that walks pn.transactions of an address set needs no second walk of the same
-- transactions for the set's UTXOs (activities/streams/utxoWalk.ts, params.spendsFromTransactions).
UPDATE pn_utxos AS u
SET addresses = c.addresses,
    amount = c.amount,
    asset_id = c.asset_id,
    asset_name = c.asset_name,
    asset_symbol = c.asset_symbol,
    asset_denomination = c.asset_denomination,
    asset_type = c.asset_type,
    asset_amount = c.asset_amount,
    tx_hash = c.utxo_tx_hash,
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
FROM {stage} AS c
WHERE c.direction = 'consumed'
  AND u.network = c.network
  AND u.blockchain_id = c.blockchain_id
  AND u.utxo_id = c.utxo_id
  AND u.consuming_tx_hash IS DISTINCT FROM c.consuming_tx_hash;
