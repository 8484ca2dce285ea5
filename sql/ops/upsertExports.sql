-- The partition files one export wrote, in one statement ($1: JSON list of {table_name, partition_path, fingerprint, rows}).
INSERT OR REPLACE INTO _glacier_exports (table_name, partition_path, fingerprint, rows, exported_at)
SELECT e.table_name, e.partition_path, e.fingerprint, e.rows, now()
FROM (SELECT unnest(CAST($1 AS JSON)::STRUCT(table_name VARCHAR, partition_path VARCHAR, fingerprint VARCHAR, rows BIGINT)[], recursive := true)) AS e;
