-- A newly stored RewardValidatorTx names its staking transaction; the API then shows that staking
-- transaction's rewardTxHash, so the stored staking row gets it too.
-- The staking rows it changes are found once (a scan of the columns the join reads over the whole
-- stored table: a reward may name a staking transaction of any age) and kept by row id with their
-- partition: the marks (for the next export, activities/warehouse/lakeKeys.ts) and the update read
-- them there, instead of a scan each.
CREATE OR REPLACE TEMP TABLE _glacier_rewarded AS
SELECT t.rowid AS rid, {lake_key:pn_transactions:t:network,blockchain_id:block_timestamp} AS k, r.tx_hash AS reward_tx_hash
FROM pn_transactions AS t, {stage} AS r
WHERE r.staking_tx_hash IS NOT NULL
  AND t.network = r.network
  AND t.tx_hash = r.staking_tx_hash
  AND t.reward_tx_hash IS DISTINCT FROM r.tx_hash;

INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_transactions', k, nextval('_glacier_lake_seq') FROM (SELECT DISTINCT k FROM _glacier_rewarded);

UPDATE pn_transactions AS t
SET reward_tx_hash = x.reward_tx_hash
FROM _glacier_rewarded AS x
WHERE t.rowid = x.rid;

DROP TABLE _glacier_rewarded;
