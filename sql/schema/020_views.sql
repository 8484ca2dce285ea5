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

-- Latest snapshot of EVM balances per (chain, address[, token]).
CREATE OR REPLACE VIEW v_evm_native_balances_latest AS
SELECT * FROM evm_native_balances
QUALIFY snapshot_at = max(snapshot_at) OVER (PARTITION BY chain_id, address);

CREATE OR REPLACE VIEW v_evm_erc20_balances_latest AS
SELECT * FROM evm_erc20_balances
QUALIFY snapshot_at = max(snapshot_at) OVER (PARTITION BY chain_id, address);

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

-- Latest pending rewards per staking transaction.
CREATE OR REPLACE VIEW v_pn_pending_rewards_latest AS
SELECT * FROM pn_pending_rewards
QUALIFY snapshot_at = max(snapshot_at) OVER (PARTITION BY network);

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
