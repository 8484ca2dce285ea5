-- The partitions one export wrote, in ONE statement: $1 table names, $2 partition paths, $3
-- fingerprints, $4 row counts (parallel lists). One INSERT OR REPLACE per partition inside the
-- export's transaction held a fresh buffer block each (about 135 KB per statement, 230 MB for the
-- 1,700 partitions of a 100-day history's first export) until COMMIT.
INSERT OR REPLACE INTO _glacier_exports (table_name, partition_path, fingerprint, rows, exported_at)
SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[]), unnest($3::VARCHAR[]), unnest($4::BIGINT[]), now();
