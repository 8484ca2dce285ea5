-- Before pn_transaction_utxos' merge (lake layout 3): the spends of the emitted rows the merge replaces
-- with other values and the spends the changed staged emitted rows carry (a transaction first listed
-- after its outputs were spent) change pn_utxo_spends ({changed}: the staged rows no stored row equals;
-- a re-read row as stored changes nothing), a lake table dated by the spend's day (sql/lake/pn_utxo_spends.sql):
-- their partitions go to the next export (activities/warehouse/lakeKeys.ts).
INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)
SELECT 'pn_utxo_spends', k, nextval('_glacier_lake_seq') FROM (
  SELECT DISTINCT {lake_key:pn_utxo_spends:x:network,blockchain_id:consuming_block_timestamp} AS k FROM (
    SELECT t.network, t.blockchain_id, t.consuming_block_timestamp
    FROM pn_transaction_utxos AS t
    JOIN {changed} AS s
      ON t.network = s.network AND t.blockchain_id = s.blockchain_id AND t.tx_hash = s.tx_hash AND t.direction = s.direction AND t.item_index = s.item_index
    WHERE t.direction = 'emitted' AND t.consuming_tx_hash IS NOT NULL
    UNION ALL
    SELECT c.network, c.blockchain_id, c.consuming_block_timestamp
    FROM {changed} AS c
    WHERE c.direction = 'emitted' AND c.consuming_tx_hash IS NOT NULL
  ) AS x
);
