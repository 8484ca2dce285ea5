-- A newly stored RewardValidatorTx names its staking transaction; the API then shows that staking
-- transaction's rewardTxHash, so the stored staking row gets it too.
-- Lake layout 3: the lake's pn_transactions files hold reward_tx_hash NULL, pn_transaction_rewards holds
-- it, dated by the reward transaction's day (sql/lake/pn_transaction_rewards.sql). Its partitions this
-- batch changes go to the next export (activities/warehouse/lakeKeys.ts): the reward as now stored of
-- every staking row the merge changed ({changed}: the staged rows no stored row equals), and for each
-- staking row a staged reward names, when the reward is new or changed or the row named another, the
-- day of its reward before the update (if another) and after it.
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
    SELECT s.network, s.blockchain_id, n.block_timestamp AS reward_block_timestamp
    FROM {changed} AS s
    LEFT JOIN lookups AS n ON n.network = s.network AND n.blockchain_id = s.blockchain_id AND n.tx_hash = s.reward_tx_hash
    WHERE s.reward_tx_hash IS NOT NULL
    UNION ALL
    SELECT t.network, t.blockchain_id, CASE WHEN d.old THEN o.block_timestamp ELSE n.block_timestamp END
    FROM lookups AS t
    JOIN {stage} AS r ON t.network = r.network AND t.tx_hash = r.staking_tx_hash
    CROSS JOIN (VALUES (true), (false)) AS d(old)
    LEFT JOIN lookups AS o ON o.network = t.network AND o.blockchain_id = t.blockchain_id AND o.tx_hash = t.reward_tx_hash
    LEFT JOIN lookups AS n ON n.network = t.network AND n.blockchain_id = t.blockchain_id AND n.tx_hash = r.tx_hash
    LEFT JOIN {changed} AS c ON c.network = r.network AND c.blockchain_id = r.blockchain_id AND c.tx_hash = r.tx_hash
    WHERE r.staking_tx_hash IS NOT NULL
      AND (c.tx_hash IS NOT NULL OR t.reward_tx_hash IS DISTINCT FROM r.tx_hash)
      -- the old reward's day only when the row named another one
      AND NOT (d.old AND (t.reward_tx_hash IS NULL OR t.reward_tx_hash = r.tx_hash))
  ) AS x
);

UPDATE pn_transactions AS t
SET reward_tx_hash = r.tx_hash
FROM {stage} AS r
WHERE r.staking_tx_hash IS NOT NULL
  AND t.network = r.network
  AND t.tx_hash = r.staking_tx_hash
  AND t.reward_tx_hash IS DISTINCT FROM r.tx_hash;
