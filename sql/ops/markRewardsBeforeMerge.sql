-- Before pn_transactions' merge (lake layout 3): pn_transaction_rewards, a lake table dated by the
-- reward transaction's day (sql/lake/pn_transaction_rewards.sql), changes for the staking rows the merge
-- replaces with other values (their reward as stored; {changed}: the staged rows no stored row equals) and, when a reward transaction is stored for the first time, for
-- the staking rows that already named it (dated NULL until now). The partitions go to the next export
-- (activities/warehouse/lakeKeys.ts); sql/ops/propagateRewardTx.sql marks the new ones after the merge.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
WITH stored AS MATERIALIZED (
  -- The stored rows this batch concerns, found from the batch's own hashes: each IN builds its hash
  -- table over the batch and streams the table past it, so memory follows the batch, not the history
  -- (test/warehouse/commitPlans.test.ts). A LEFT JOIN straight to pn_transactions built its hash table
  -- over the whole table and ran the 64 MB limit out of memory at 10x the demo's history.
  SELECT network, blockchain_id, tx_hash, block_timestamp, reward_tx_hash FROM pn_transactions
  WHERE tx_hash IN (SELECT tx_hash FROM {stage}) OR tx_hash IN (SELECT staking_tx_hash FROM {stage}) OR tx_hash IN (SELECT reward_tx_hash FROM {stage})
), lookups AS MATERIALIZED (
  -- ... and the reward transactions they name.
  SELECT network, blockchain_id, tx_hash, block_timestamp, reward_tx_hash FROM pn_transactions
  WHERE tx_hash IN (SELECT tx_hash FROM stored) OR tx_hash IN (SELECT reward_tx_hash FROM stored)
)
SELECT 'pn_transaction_rewards', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_transaction_rewards:x:network,blockchain_id:reward_block_timestamp} AS k FROM (
    SELECT t.network, t.blockchain_id, o.block_timestamp AS reward_block_timestamp
    FROM lookups AS t
    JOIN {changed} AS s ON t.network = s.network AND t.blockchain_id = s.blockchain_id AND t.tx_hash = s.tx_hash AND t.block_timestamp = s.block_timestamp
    LEFT JOIN lookups AS o ON o.network = t.network AND o.blockchain_id = t.blockchain_id AND o.tx_hash = t.reward_tx_hash
    WHERE t.reward_tx_hash IS NOT NULL
    UNION ALL
    SELECT t.network, t.blockchain_id, NULL
    FROM {changed} AS r
    JOIN lookups AS t ON t.network = r.network AND t.blockchain_id = r.blockchain_id AND t.tx_hash = r.staking_tx_hash AND t.reward_tx_hash = r.tx_hash
    WHERE r.staking_tx_hash IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM lookups AS p WHERE p.network = r.network AND p.blockchain_id = r.blockchain_id AND p.tx_hash = r.tx_hash)
  ) AS x
);
