-- Which bookkeeping tables the file has, and the version it records: enough to tell a new file, a
-- file written by 0.1.0 (no _glacier_meta), and a versioned one.
SELECT
  (SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = '_glacier_checkpoints') > 0 AS has_checkpoints,
  (SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = '_glacier_meta') > 0 AS has_meta;
