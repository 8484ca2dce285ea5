-- Before pn_transactions' merge (lake layout 3): pn_transaction_rewards, a lake table dated by the
-- reward transaction's day (sql/lake/pn_transaction_rewards.sql), changes for the staking rows the merge
-- replaces with other values (their reward as stored; {changed}: the staged rows no stored row equals) and, when a reward transaction is stored for the first time, for
-- the staking rows that already named it (dated NULL until now). The partitions go to the next export
-- (activities/warehouse/lakeKeys.ts); sql/ops/propagateRewardTx.sql marks the new ones after the merge.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_transaction_rewards', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_transaction_rewards:x:network,blockchain_id:reward_block_timestamp} AS k FROM (
    SELECT t.network, t.blockchain_id, o.block_timestamp AS reward_block_timestamp
    FROM pn_transactions AS t
    JOIN {changed} AS s ON t.network = s.network AND t.blockchain_id = s.blockchain_id AND t.tx_hash = s.tx_hash AND t.block_timestamp = s.block_timestamp
    LEFT JOIN pn_transactions AS o ON o.network = t.network AND o.blockchain_id = t.blockchain_id AND o.tx_hash = t.reward_tx_hash
    WHERE t.reward_tx_hash IS NOT NULL
    UNION ALL
    SELECT t.network, t.blockchain_id, NULL
    FROM {changed} AS r
    JOIN pn_transactions AS t ON t.network = r.network AND t.blockchain_id = r.blockchain_id AND t.tx_hash = r.staking_tx_hash AND t.reward_tx_hash = r.tx_hash
    WHERE r.staking_tx_hash IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM pn_transactions AS p WHERE p.network = r.network AND p.blockchain_id = r.blockchain_id AND p.tx_hash = r.tx_hash)
  ) AS x
);
