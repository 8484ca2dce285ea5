-- The marks an export wrote, in one statement ($1 tables, $2 partition keys, $3 the seq each was read
-- with). Only the change the export read is cleared: a commit that changed the partition again since
-- then left a newer seq.
UPDATE _glacier_changed_partitions AS p SET exported_seq = p.seq
FROM (SELECT unnest($1::VARCHAR[]) AS table_name, unnest($2::VARCHAR[]) AS partition_key, unnest($3::BIGINT[]) AS seq) AS m
WHERE p.table_name = m.table_name AND p.partition_key = m.partition_key AND p.seq = m.seq;
