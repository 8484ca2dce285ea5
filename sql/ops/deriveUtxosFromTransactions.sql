-- The address transaction walk keeps pn_utxos current without a request of the UTXO list
-- (activities/streams/utxoDerivation.ts): every UTXO created on a chain is emitted by a transaction
-- of that chain that lists its owners, so the transactions just linked to an address set carry, in
-- the list's own shape (PChainUtxo on the P-chain, Utxo on X and C), every new UTXO of the set on
-- that chain, and every spend of one, an import of another chain's export included (the importing
-- transaction consumes it in this chain's shape). An export not yet imported is left to the UTXO
-- list: only the exporting chain's transaction shows it, in that chain's shape, not the listing's.
-- Of all stored copies of a UTXO the spent one wins (a consumed copy, else an emitted copy a spend
-- updated), so the transactions may arrive in any order (a sync walks them newest first), and a
-- stored row is only ever moved forward: inserted when absent, updated from unspent to spent.
CREATE OR REPLACE TEMP TABLE _derived_utxos AS
WITH linked AS (
  SELECT DISTINCT t.network, t.blockchain_id, t.utxo_id
  FROM {stage} AS a
  JOIN pn_transaction_utxos AS t ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash
  WHERE (t.direction = 'consumed' OR t.created_on_chain_id = t.consumed_on_chain_id)
    AND list_has_any(t.addresses, list_transform(string_split(a.address_set, ','), x -> regexp_replace(x, '^[A-Za-z]-', '')))
)
SELECT t.*
FROM pn_transaction_utxos AS t
JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id
QUALIFY row_number() OVER (
  PARTITION BY t.network, t.blockchain_id, t.utxo_id
  ORDER BY (t.direction = 'consumed') DESC, (t.consuming_tx_hash IS NOT NULL) DESC, t.tx_hash, t.direction, t.item_index
) = 1;

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
