-- Analyst views over the stream tables. Amount sums use the typed columns (HUGEINT for nAVAX,
-- DECIMAL(38,0) twins for uint256 values); a uint256 too large for 38 digits is NULL there and so
-- left out of sums; its exact text stays in the VARCHAR column.

-- Transactions per EVM chain and UTC day, with native value moved and distinct senders.
CREATE OR REPLACE VIEW v_evm_daily_transactions AS
SELECT
  chain_id,
  CAST(to_timestamp(block_timestamp) AT TIME ZONE 'UTC' AS DATE) AS day,
  count(*) AS tx_count,
  count(*) FILTER (WHERE tx_status = '1') AS succeeded,
  count(DISTINCT from_address) AS senders,
  sum(value_num) AS value_wei,
  sum(CAST(gas_used AS HUGEINT) * gas_price_num) AS fees_wei
FROM evm_transactions
GROUP BY ALL;

-- Token transfers per contract and UTC day.
CREATE OR REPLACE VIEW v_evm_daily_token_transfers AS
SELECT
  chain_id,
  contract_address,
  CAST(to_timestamp(block_timestamp) AT TIME ZONE 'UTC' AS DATE) AS day,
  count(*) AS transfers,
  sum(value_num) AS value
FROM evm_token_transfers
GROUP BY ALL;

-- Latest snapshots. A snapshot stream (balances, pending rewards, holders) records every finished walk
-- of a partition in _glacier_snapshot_walks, empty walks included, in the transaction of its last
-- page. "Latest" is the last finished walk of an address, address set or contract, whatever it held:
-- a balance that went away has no row here, and rows of a walk that never finished never show.
-- The partition's params name what a walk covers (chainId + address or addresses, network +
-- blockchainId + addresses, nodeIds, contract address + threshold).
-- These tables hold versions: a row holds from its snapshot_at until valid_to (NULL: still current),
-- and a walk writes only what changed. The latest snapshot of a partition is therefore read as of its
-- last finished walk W: snapshot_at <= W AND (valid_to IS NULL OR valid_to > W). That is exactly what
-- the walk saw, even while a later walk is half-way through (its new versions start after W; the ones
-- it closed end after W).

-- Native balance per (chain, address): the row of the last finished walk that read one. The native
-- stream and the ERC-20/721/1155 lists (their nativeTokenBalance) all read it; the API always answers
-- a value, so an emptied balance reads 0 here.
CREATE OR REPLACE VIEW v_evm_native_balances_latest AS
WITH walked AS (
  SELECT params->>'chainId' AS chain_id,
         unnest(CASE WHEN stream = 'evm.native_balances' THEN CAST(params->'addresses' AS VARCHAR[]) ELSE [params->>'address'] END) AS address,
         snapshot_at
  FROM _glacier_snapshot_walks
  WHERE stream IN ('evm.native_balances', 'evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances')
)
SELECT b.* FROM evm_native_balances b
SEMI JOIN (SELECT chain_id, address, max(snapshot_at) AS snapshot_at FROM walked GROUP BY ALL) w
  ON w.chain_id = b.chain_id AND w.address = b.address AND b.snapshot_at <= w.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > w.snapshot_at);

-- The last finished walk of each ERC balance stream per (chain, owner address).
CREATE OR REPLACE VIEW v_evm_erc_balances_latest_walks AS
SELECT stream, params->>'chainId' AS chain_id, params->>'address' AS address, max(snapshot_at) AS snapshot_at
FROM _glacier_snapshot_walks
WHERE stream IN ('evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances')
GROUP BY ALL;

-- ERC-20 / ERC-721 / ERC-1155 balances per (chain, owner address): the tokens its last finished walk listed.
CREATE OR REPLACE VIEW v_evm_erc20_balances_latest AS
SELECT b.* FROM evm_erc20_balances b
SEMI JOIN v_evm_erc_balances_latest_walks l ON l.stream = 'evm.erc20_balances' AND l.chain_id = b.chain_id AND l.address = b.address
  AND b.snapshot_at <= l.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > l.snapshot_at);

CREATE OR REPLACE VIEW v_evm_erc721_balances_latest AS
SELECT b.* FROM evm_erc721_balances b
SEMI JOIN v_evm_erc_balances_latest_walks l ON l.stream = 'evm.erc721_balances' AND l.chain_id = b.chain_id AND l.address = b.address
  AND b.snapshot_at <= l.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > l.snapshot_at);

CREATE OR REPLACE VIEW v_evm_erc1155_balances_latest AS
SELECT b.* FROM evm_erc1155_balances b
SEMI JOIN v_evm_erc_balances_latest_walks l ON l.stream = 'evm.erc1155_balances' AND l.chain_id = b.chain_id AND l.address = b.address
  AND b.snapshot_at <= l.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > l.snapshot_at);

-- The last finished pn.balances walk per (network, chain, address set); address_set is the set's
-- addresses comma-joined, as pn_balances stores it. Also the snapshot verify checks against UTXOs.
CREATE OR REPLACE VIEW v_pn_balances_latest_walks AS
SELECT params->>'network' AS network, params->>'blockchainId' AS blockchain_id,
       array_to_string(CAST(params->'addresses' AS VARCHAR[]), ',') AS address_set,
       max(snapshot_at) AS snapshot_at
FROM _glacier_snapshot_walks
WHERE stream = 'pn.balances'
GROUP BY ALL;

-- Primary-network balances per (network, chain, address set, kind, entry) of the last finished walk.
CREATE OR REPLACE VIEW v_pn_balances_latest AS
SELECT b.* FROM pn_balances b
SEMI JOIN v_pn_balances_latest_walks l
  ON l.network = b.network AND l.blockchain_id = b.blockchain_id AND l.address_set = b.address_set
 AND b.snapshot_at <= l.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > l.snapshot_at);

-- Holders of each (chain, contract, threshold) in the last finished walk.
CREATE OR REPLACE VIEW v_metrics_holders_latest AS
WITH latest AS (
  SELECT params->>'chainId' AS chain_id, params->>'address' AS contract_address, params->>'threshold' AS threshold, max(snapshot_at) AS snapshot_at
  FROM _glacier_snapshot_walks WHERE stream = 'metrics.holders' GROUP BY ALL
)
SELECT h.* FROM metrics_holders h
SEMI JOIN latest l ON l.chain_id = h.chain_id AND l.contract_address = h.contract_address AND l.threshold = h.threshold
  AND h.snapshot_at <= l.snapshot_at AND (h.valid_to IS NULL OR h.valid_to > l.snapshot_at);

-- Stake and delegation per validator: current validations (active and pending) from pn_validators,
-- plus delegations seen as primary-network transactions (AddDelegatorTx, AddPermissionlessDelegatorTx).
CREATE OR REPLACE VIEW v_pn_stake_per_validator AS
WITH current AS (
  SELECT network, node_id,
         count(*) AS validations,
         sum(amount_staked) AS amount_staked_navax,
         sum(amount_delegated) AS amount_delegated_navax,
         sum(delegator_count) AS delegator_count,
         max(end_timestamp) AS latest_end_timestamp
  FROM pn_validators
  WHERE validation_status IN ('active', 'pending')
  GROUP BY ALL
), delegations AS (
  SELECT t.network, t.node_id, count(DISTINCT t.tx_hash) AS delegation_txs, sum(a.amount) AS delegated_in_txs_navax
  FROM pn_transactions t
  JOIN pn_transaction_amounts a USING (network, blockchain_id, tx_hash)
  WHERE t.tx_type IN ('AddDelegatorTx', 'AddPermissionlessDelegatorTx') AND a.kind = 'amount_staked'
  GROUP BY ALL
)
SELECT coalesce(c.network, d.network) AS network, coalesce(c.node_id, d.node_id) AS node_id,
       c.validations, c.amount_staked_navax, c.amount_delegated_navax, c.delegator_count, c.latest_end_timestamp,
       d.delegation_txs, d.delegated_in_txs_navax
FROM current c FULL OUTER JOIN delegations d ON c.network = d.network AND c.node_id = d.node_id;

-- Current validation status per validation (open SCD2 version).
CREATE OR REPLACE VIEW v_pn_validator_status_current AS
SELECT network, node_id, tx_hash, validation_status, valid_from AS since
FROM pn_validator_status_history
WHERE valid_to IS NULL;

-- Historical rewards per reward address and asset (a reward with several addresses counts for each).
CREATE OR REPLACE VIEW v_pn_rewards_per_address AS
SELECT network, address, reward_asset_id AS asset_id, any_value(reward_asset_symbol) AS asset_symbol,
       count(*) AS rewards, sum(reward_amount) AS amount
FROM (SELECT *, unnest(addresses) AS address FROM pn_rewards)
GROUP BY network, address, reward_asset_id;

-- Pending rewards of the last finished walk of each partition (an address set or a node-id set of a
-- network): a reward belongs to the walks whose filter lists it (one of its reward addresses, P-/X-
-- prefix aside, is in the set, or its node id is). A reward several partitions list shows once.
CREATE OR REPLACE VIEW v_pn_pending_rewards_latest AS
WITH latest AS (
  SELECT params->>'network' AS network,
         list_transform(CAST(params->'addresses' AS VARCHAR[]), a -> regexp_replace(a, '^[PXC]-', '')) AS addresses,
         CAST(params->'nodeIds' AS VARCHAR[]) AS node_ids,
         max(snapshot_at) AS snapshot_at
  FROM _glacier_snapshot_walks
  WHERE stream = 'pn.pending_rewards'
  GROUP BY ALL
)
SELECT r.* FROM pn_pending_rewards r
SEMI JOIN latest l
  ON l.network = r.network AND r.snapshot_at <= l.snapshot_at AND (r.valid_to IS NULL OR r.valid_to > l.snapshot_at)
 AND ((l.addresses IS NULL AND l.node_ids IS NULL)
      OR list_has_any(list_transform(r.addresses, a -> regexp_replace(a, '^[PXC]-', '')), l.addresses)
      OR list_contains(l.node_ids, r.node_id));

-- Unspent UTXO balance per owner address, chain and asset (a multi-owner UTXO counts for each owner).
CREATE OR REPLACE VIEW v_pn_utxo_balances AS
SELECT network, blockchain_id, address, asset_id, any_value(asset_symbol) AS asset_symbol,
       count(*) AS utxos, sum(amount) AS amount, sum(amount) FILTER (WHERE staked) AS staked_amount
FROM (SELECT *, unnest(addresses) AS address FROM pn_utxos WHERE consuming_tx_hash IS NULL)
GROUP BY network, blockchain_id, address, asset_id;

-- Primary-network transactions per chain, type and UTC day.
CREATE OR REPLACE VIEW v_pn_daily_transactions AS
SELECT network, blockchain_id, CAST(to_timestamp(block_timestamp) AT TIME ZONE 'UTC' AS DATE) AS day, tx_type, count(*) AS tx_count
FROM pn_transactions
GROUP BY ALL;
