-- A newly stored RewardValidatorTx names its staking transaction; the API then shows that staking
-- transaction's rewardTxHash, so the stored staking row gets it too.
-- The staking rows it changes: their partitions go to the next export (activities/warehouse/lakeKeys.ts).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_transactions', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_transactions:t:network,blockchain_id:block_timestamp} AS k
  FROM pn_transactions AS t, {stage} AS r
  WHERE r.staking_tx_hash IS NOT NULL
    AND t.network = r.network
    AND t.tx_hash = r.staking_tx_hash
    AND t.reward_tx_hash IS DISTINCT FROM r.tx_hash
);

UPDATE pn_transactions AS t
SET reward_tx_hash = r.tx_hash
FROM {stage} AS r
WHERE r.staking_tx_hash IS NOT NULL
  AND t.network = r.network
  AND t.tx_hash = r.staking_tx_hash
  AND t.reward_tx_hash IS DISTINCT FROM r.tx_hash;
