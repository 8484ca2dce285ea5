-- Before pn_utxos' merge (lake layout 4): the staged rows no stored row equals ({changed}) whose spend
-- differs from the stored row's (or that are new and spent) change pn_utxos_consumed, a lake table
-- dated by the spend's day (sql/lake/pn_utxos_consumed.sql): the old spend's day and the new one go to
-- the next export (activities/warehouse/lakeKeys.ts). A UTXO listed again with only a new
-- last_seen_at changes no spend, so it marks nothing.
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxos_consumed', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxos_consumed:x:network,blockchain_id:consuming_block_timestamp} AS k FROM (
    SELECT d.network, d.blockchain_id, CASE WHEN d.old THEN d.old_day ELSE d.new_day END AS consuming_block_timestamp
    FROM (
      SELECT c.network, c.blockchain_id, u.consuming_block_timestamp AS old_day, c.consuming_block_timestamp AS new_day, u.consuming_tx_hash AS old_tx, c.consuming_tx_hash AS new_tx, o.old
      FROM {changed} AS c
      LEFT JOIN pn_utxos AS u ON u.network = c.network AND u.blockchain_id = c.blockchain_id AND u.utxo_id = c.utxo_id
      CROSS JOIN (VALUES (true), (false)) AS o(old)
      WHERE row(u.consuming_tx_hash, u.consuming_block_number, u.consuming_block_timestamp, u.consuming_tx_timestamp, u.credentials)
            IS DISTINCT FROM row(c.consuming_tx_hash, c.consuming_block_number, c.consuming_block_timestamp, c.consuming_tx_timestamp, c.credentials)
    ) AS d
    -- the old day only when the stored row was spent, the new one only when the staged row is
    WHERE (d.old AND d.old_tx IS NOT NULL) OR (NOT d.old AND d.new_tx IS NOT NULL)
  ) AS x
);
