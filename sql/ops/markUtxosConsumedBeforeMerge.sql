-- Before pn_utxos' merge (lake layout 4): the spends of the stored rows the merge replaces with other
-- values, and the spends the changed staged rows carry ({changed}: the staged rows no stored row
-- equals), change pn_utxos_consumed, a lake table dated by the spend's day
-- (sql/lake/pn_utxos_consumed.sql): their partitions go to the next export (activities/warehouse/lakeKeys.ts).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxos_consumed', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxos_consumed:x:network,blockchain_id:consuming_block_timestamp} AS k FROM (
    SELECT u.network, u.blockchain_id, u.consuming_block_timestamp
    FROM pn_utxos AS u
    JOIN {changed} AS s ON u.network = s.network AND u.blockchain_id = s.blockchain_id AND u.utxo_id = s.utxo_id
    WHERE u.consuming_tx_hash IS NOT NULL
    UNION ALL
    SELECT c.network, c.blockchain_id, c.consuming_block_timestamp
    FROM {changed} AS c
    WHERE c.consuming_tx_hash IS NOT NULL
  ) AS x
);
