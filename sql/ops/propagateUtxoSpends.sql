-- A newly stored transaction that consumes UTXOs marks them spent where earlier transactions
-- emitted them (on any chain of the network: imports consume exported UTXOs), as the API now does.
-- A spend on another chain arrives in that chain's UTXO shape, so the emitted row takes the spend in
-- its own shape (generic X/C rows have creation_tx_hash): a PChainUtxo gains the consuming block
-- (number only from a P-chain spend), a generic Utxo consumingTxTimestamp and the credentials (which
-- only an X/C-chain spend carries). consuming_block_timestamp is the spend's time in both shapes.
-- The emitted rows a consumed row of the batch spends are found once and kept by row id with the spend
-- each takes and its partition: the marks and the update read them there. Finding them scans the
-- columns this join reads over the whole stored table (a spend may consume a UTXO of any age); it
-- ran twice, once per statement, before. A plain join: the key columns first and the rows then
-- fetched by row id (storedRows.ts) cost 1.8-2.2x as much for a lookup by utxo_id alone, and a 64-bit
-- key column beside it 1.04-1.27x (bench/keyLookup.ts).
-- The partitions of the rows the two updates change go to the next export (activities/warehouse/lakeKeys.ts):
-- the emitted row's, and for pn_utxos both the stored row's and the one it takes from the spend (its
-- block time may differ).
CREATE OR REPLACE TEMP TABLE _glacier_spends AS
SELECT e.rowid AS rid,
       {lake_key:pn_transaction_utxos:e:network,blockchain_id:block_timestamp} AS k,
       coalesce(c.consuming_tx_hash, c.tx_hash) AS consuming_tx_hash,
       CASE WHEN e.creation_tx_hash IS NULL THEN c.consuming_block_number END AS consuming_block_number,
       c.consuming_block_timestamp,
       CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.consuming_block_timestamp END AS consuming_tx_timestamp,
       c.consumed_on_chain_id,
       CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.credentials END AS credentials
FROM pn_transaction_utxos AS e, {stage} AS c
WHERE c.direction = 'consumed'
  AND e.direction = 'emitted'
  AND e.network = c.network
  AND e.utxo_id = c.utxo_id
  AND e.consuming_tx_hash IS DISTINCT FROM coalesce(c.consuming_tx_hash, c.tx_hash);

INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT table_name, k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT 'pn_transaction_utxos' AS table_name, k FROM _glacier_spends
  UNION
  SELECT DISTINCT 'pn_utxos', unnest([{lake_key:pn_utxos:u:network,blockchain_id:block_timestamp}, {lake_key:pn_utxos:c:network,blockchain_id:block_timestamp}])
  FROM pn_utxos AS u, {stage} AS c
  WHERE c.direction = 'consumed'
    AND u.network = c.network
    AND u.blockchain_id = c.blockchain_id
    AND u.utxo_id = c.utxo_id
    AND u.consuming_tx_hash IS DISTINCT FROM c.consuming_tx_hash
);

UPDATE pn_transaction_utxos AS e
SET consuming_tx_hash = x.consuming_tx_hash,
    consuming_block_number = x.consuming_block_number,
    consuming_block_timestamp = x.consuming_block_timestamp,
    consuming_tx_timestamp = x.consuming_tx_timestamp,
    consumed_on_chain_id = x.consumed_on_chain_id,
    credentials = x.credentials
FROM _glacier_spends AS x
WHERE e.rowid = x.rid;

DROP TABLE _glacier_spends;

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
