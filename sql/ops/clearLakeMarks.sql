-- The marks one export read, cleared in one statement ($1: JSON list of {table_name, partition_key, seq}). Only the
-- change the export read: a commit that changed the partition again since then left a newer seq.
UPDATE _glacier_changed_partitions AS m
SET exported_seq = m.seq
FROM (SELECT unnest(CAST($1 AS JSON)::STRUCT(table_name VARCHAR, partition_key VARCHAR, seq BIGINT)[], recursive := true)) AS c
WHERE m.table_name = c.table_name AND m.partition_key = c.partition_key AND m.seq = c.seq;
