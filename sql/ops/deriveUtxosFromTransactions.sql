-- The address transaction walk keeps pn_utxos current without a request of the UTXO list
-- (activities/streams/utxoDerivation.ts): every UTXO created on a chain is emitted by a transaction
-- of that chain that lists its owners, so the transactions just linked to an address set carry, in
-- the list's own shape (PChainUtxo on the P-chain, Utxo on X and C), every new UTXO of the set on
-- that chain, and every spend of one, an import of another chain's export included (the importing
-- transaction consumes it in this chain's shape). An export not yet imported shows only in the
-- exporting chain's transaction, in that chain's shape: the last statement derives the X/C-chain
-- listing's row from it; one to the P-chain is left to the UTXO list.
-- Of all stored copies of a UTXO the spent one wins (a consumed copy, else an emitted copy a spend
-- updated), so the transactions may arrive in any order (a sync walks them newest first), and a
-- stored row is only ever moved forward: inserted when absent, updated from unspent to spent.
-- pn_transaction_utxos' rows are found by their key columns alone, then fetched by row id (the
-- joins with rowid): a join that needs a wide column (addresses, t.*) read that column of every
-- stored row, so its CPU followed the history (bench/README.md, "The night's growth, profiled").
-- A transaction's rows are found with its time (tx_block_timestamp), and the copies of a linked
-- UTXO only among rows of transactions no older than the batch's oldest: the copy that wins is the
-- batch's own or a spend of it, and a spend is never older than what it spends. A transaction the
-- API sent without a time (its rows' tx_block_timestamp NULL) is found by its hash in a branch of
-- its own, which costs nothing when no row lacks one (a NULL in the join or the bound would stop
-- the pruning). A fetch by row id reads every column of the row groups the ids fall in, so ids
-- spread over the history (an old emitted copy) cost a read of all of it (at 30x the demo, 263 ms
-- against 30: bench/README.md).
CREATE OR REPLACE TEMP TABLE _derived_utxos AS
WITH linked AS (
  SELECT DISTINCT t.network, t.blockchain_id, t.utxo_id
  FROM {stage} AS a
  JOIN (
    SELECT t.* FROM pn_transaction_utxos AS t
    JOIN (
      SELECT t.rowid AS rid FROM pn_transaction_utxos AS t SEMI JOIN {stage} AS a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash AND t.tx_block_timestamp = a.block_timestamp
      UNION ALL
      SELECT t.rowid FROM pn_transaction_utxos AS t SEMI JOIN (SELECT * FROM {stage} WHERE block_timestamp IS NULL) AS a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash
    ) AS r ON t.rowid = r.rid
  ) AS t ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash
  WHERE (t.direction = 'consumed' OR t.created_on_chain_id = t.consumed_on_chain_id)
    AND list_has_any(t.addresses, list_transform(string_split(a.address_set, ','), x -> regexp_replace(x, '^[A-Za-z]-', '')))
)
SELECT t.*
FROM pn_transaction_utxos AS t
JOIN (
  SELECT t.rowid AS rid FROM pn_transaction_utxos AS t SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id
  WHERE t.tx_block_timestamp >= (SELECT CASE WHEN bool_or(block_timestamp IS NULL) THEN 0 ELSE coalesce(min(block_timestamp), 0) END FROM {stage})
  UNION ALL
  SELECT t.rowid FROM pn_transaction_utxos AS t SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id
  WHERE t.tx_block_timestamp IS NULL
) AS r ON t.rowid = r.rid
QUALIFY row_number() OVER (
  PARTITION BY t.network, t.blockchain_id, t.utxo_id
  ORDER BY (t.direction = 'consumed') DESC, (t.consuming_tx_hash IS NOT NULL) DESC, t.tx_hash, t.direction, t.item_index
) = 1;

-- The partitions of the rows the update and the insert below change go to the next export
-- (activities/warehouse/lakeKeys.ts): a row inserted, and a row moved forward as it was and as it
-- becomes (a derived row already stored as it is changes nothing: a re-read page marks no old day).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT table_name, k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT 'pn_utxos' AS table_name, {lake_key:pn_utxos:d:network,blockchain_id:block_timestamp} AS k FROM _derived_utxos AS d
  WHERE NOT EXISTS (SELECT 1 FROM pn_utxos AS u WHERE u.network = d.network AND u.blockchain_id = d.blockchain_id AND u.utxo_id = d.utxo_id)
  UNION
  SELECT 'pn_utxos', unnest([{lake_key:pn_utxos:u:network,blockchain_id:block_timestamp}, {lake_key:pn_utxos:d:network,blockchain_id:block_timestamp}])
  FROM pn_utxos AS u, _derived_utxos AS d
  WHERE u.network = d.network
    AND u.blockchain_id = d.blockchain_id
    AND u.utxo_id = d.utxo_id
    AND u.consuming_tx_hash IS NULL
    AND d.consuming_tx_hash IS NOT NULL
);

UPDATE pn_utxos AS u
SET tx_hash = d.utxo_tx_hash,
    addresses = d.addresses,
    amount = d.amount,
    asset_id = d.asset_id,
    asset_name = d.asset_name,
    asset_symbol = d.asset_symbol,
    asset_denomination = d.asset_denomination,
    asset_type = d.asset_type,
    asset_amount = d.asset_amount,
    output_index = d.output_index,
    block_number = d.block_number,
    block_timestamp = d.block_timestamp,
    created_on_chain_id = d.created_on_chain_id,
    consumed_on_chain_id = d.consumed_on_chain_id,
    consuming_tx_hash = d.consuming_tx_hash,
    consuming_block_number = d.consuming_block_number,
    consuming_block_timestamp = d.consuming_block_timestamp,
    utxo_bytes = d.utxo_bytes,
    platform_locktime = d.platform_locktime,
    stakeable_locktime = d.stakeable_locktime,
    staked = d.staked,
    threshold = d.threshold,
    reward_type = d.reward_type,
    utxo_type = d.utxo_type,
    utxo_start_timestamp = d.utxo_start_timestamp,
    utxo_end_timestamp = d.utxo_end_timestamp,
    creation_tx_hash = d.creation_tx_hash,
    consuming_tx_timestamp = d.consuming_tx_timestamp,
    locktime = d.locktime,
    timestamp = d.timestamp,
    group_id = d.group_id,
    payload = d.payload,
    credentials = d.credentials
FROM _derived_utxos AS d
WHERE u.network = d.network
  AND u.blockchain_id = d.blockchain_id
  AND u.utxo_id = d.utxo_id
  AND u.consuming_tx_hash IS NULL
  AND d.consuming_tx_hash IS NOT NULL;

-- last_seen_at: the snapshot of the run that stored it is not known here; the derived row carries
-- its creation time (bookkeeping, not API data: test/helpers/truthTables.ts).
INSERT INTO pn_utxos (network, blockchain_id, utxo_id, tx_hash, addresses, amount, asset_id, asset_name, asset_symbol, asset_denomination, asset_type, asset_amount, output_index, block_number, block_timestamp, created_on_chain_id, consumed_on_chain_id, consuming_tx_hash, consuming_block_number, consuming_block_timestamp, utxo_bytes, platform_locktime, stakeable_locktime, staked, threshold, reward_type, utxo_type, utxo_start_timestamp, utxo_end_timestamp, creation_tx_hash, consuming_tx_timestamp, locktime, timestamp, group_id, payload, credentials, last_seen_at)
SELECT d.network, d.blockchain_id, d.utxo_id, d.utxo_tx_hash, d.addresses, d.amount, d.asset_id, d.asset_name, d.asset_symbol, d.asset_denomination, d.asset_type, d.asset_amount, d.output_index, d.block_number, d.block_timestamp, d.created_on_chain_id, d.consumed_on_chain_id, d.consuming_tx_hash, d.consuming_block_number, d.consuming_block_timestamp, d.utxo_bytes, d.platform_locktime, d.stakeable_locktime, d.staked, d.threshold, d.reward_type, d.utxo_type, d.utxo_start_timestamp, d.utxo_end_timestamp, d.creation_tx_hash, d.consuming_tx_timestamp, d.locktime, d.timestamp, d.group_id, d.payload, d.credentials, d.block_timestamp
FROM _derived_utxos AS d
WHERE NOT EXISTS (SELECT 1 FROM pn_utxos AS u WHERE u.network = d.network AND u.blockchain_id = d.blockchain_id AND u.utxo_id = d.utxo_id);

DROP TABLE _derived_utxos;

-- An export to the X- or C-chain that is not imported yet is listed there in the generic Utxo shape,
-- which holds nothing the exporting transaction's copy lacks: the same id, owners, asset, amount,
-- output index, bytes, threshold and chain ids; creationTxHash = the export's hash, timestamp = its
-- block time, locktime = the output's lock time (a P-chain copy calls it platformLocktime), no
-- credentials while unspent, no group or payload (an export's outputs are transfers), and utxoType
-- as the destination decodes the output: `transfer`, as on every X/C-chain transfer output (a P-chain
-- copy says TRANSFER; a generic copy is taken as sent). The PChainUtxo shape of an export to the
-- P-chain has fields no X/C-chain copy carries (block number, staked): those stay with the list
-- (activities/streams/utxoDerivation.ts). Only unspent copies: once imported, the importing
-- transaction carries the UTXO in the destination's own shape, and the statements above use it.
-- The chain ids are the primary network's (../shared/spec/real-api-facts.md, Identifiers); a
-- destination is derived only for a set already linked there, i.e. whose walk of that chain runs.
CREATE OR REPLACE TEMP TABLE _derived_exports AS SELECT * FROM pn_utxos LIMIT 0;
INSERT INTO _derived_exports (network, blockchain_id, utxo_id, tx_hash, addresses, amount, asset_id, asset_name, asset_symbol, asset_denomination, asset_type, asset_amount, output_index, block_number, block_timestamp, created_on_chain_id, consumed_on_chain_id, consuming_tx_hash, consuming_block_number, consuming_block_timestamp, utxo_bytes, platform_locktime, stakeable_locktime, staked, threshold, reward_type, utxo_type, utxo_start_timestamp, utxo_end_timestamp, creation_tx_hash, consuming_tx_timestamp, locktime, timestamp, group_id, payload, credentials, last_seen_at)
WITH chains (network, alias, blockchain_id) AS (
  VALUES ('mainnet', 'x-chain', '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM'),
         ('mainnet', 'c-chain', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'),
         ('fuji', 'x-chain', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'),
         ('fuji', 'c-chain', 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp'),
         ('testnet', 'x-chain', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'),
         ('testnet', 'c-chain', 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp')
),
exported AS (
  SELECT DISTINCT ON (e.network, d.alias, e.utxo_id) e.*, d.alias
  FROM {stage} AS a
  JOIN (
    SELECT e.* FROM pn_transaction_utxos AS e
    JOIN (
      SELECT e.rowid AS rid FROM pn_transaction_utxos AS e SEMI JOIN {stage} AS a ON e.network = a.network AND e.blockchain_id = a.blockchain_id AND e.tx_hash = a.tx_hash AND e.tx_block_timestamp = a.block_timestamp
      UNION ALL
      SELECT e.rowid FROM pn_transaction_utxos AS e SEMI JOIN (SELECT * FROM {stage} WHERE block_timestamp IS NULL) AS a ON e.network = a.network AND e.blockchain_id = a.blockchain_id AND e.tx_hash = a.tx_hash
    ) AS r ON e.rowid = r.rid
  ) AS e ON e.network = a.network AND e.blockchain_id = a.blockchain_id AND e.tx_hash = a.tx_hash
  JOIN chains AS d ON d.network = e.network AND d.blockchain_id = e.consumed_on_chain_id AND d.alias <> e.blockchain_id
  WHERE e.direction = 'emitted'
    AND e.created_on_chain_id IS DISTINCT FROM e.consumed_on_chain_id
    AND e.consuming_tx_hash IS NULL
    AND list_has_any(e.addresses, list_transform(string_split(a.address_set, ','), x -> regexp_replace(x, '^[A-Za-z]-', '')))
    AND EXISTS (SELECT 1 FROM pn_address_transactions AS l WHERE l.network = a.network AND l.blockchain_id = d.alias AND l.address_set = a.address_set)
)
SELECT x.network, x.alias, x.utxo_id, x.utxo_tx_hash, x.addresses, x.amount, x.asset_id, x.asset_name, x.asset_symbol, x.asset_denomination, x.asset_type, x.asset_amount, x.output_index,
       NULL, x.block_timestamp, x.created_on_chain_id, x.consumed_on_chain_id, NULL, NULL, NULL, x.utxo_bytes, NULL, NULL, NULL, x.threshold, NULL,
       CASE WHEN x.creation_tx_hash IS NULL THEN 'transfer' ELSE x.utxo_type END, NULL, NULL,
       x.utxo_tx_hash, NULL, coalesce(x.locktime, x.platform_locktime), coalesce(x.timestamp, x.block_timestamp), x.group_id, x.payload, NULL, x.block_timestamp
FROM exported AS x
WHERE NOT EXISTS (SELECT 1 FROM pn_utxos AS u WHERE u.network = x.network AND u.blockchain_id = x.alias AND u.utxo_id = x.utxo_id);


INSERT INTO pn_utxos SELECT * FROM _derived_exports;

-- The rows just derived for a destination chain: their partitions go to the next export.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxos', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxos:u:network,blockchain_id:block_timestamp} AS k FROM _derived_exports AS u
);

DROP TABLE _derived_exports;
