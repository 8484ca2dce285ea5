-- What the Parquet export has to rewrite, recorded as the warehouse changes (activities/warehouse/lakeKeys.ts).
-- Idempotent.

-- Every commit takes a number from this sequence for the partitions it marks: an export clears a mark
-- only if it still holds the number the export read, so a commit that lands while an export runs
-- leaves its mark for the next export.
CREATE SEQUENCE IF NOT EXISTS _glacier_lake_seq;

CREATE TABLE IF NOT EXISTS _glacier_lake_dirty (
  table_name    VARCHAR NOT NULL,
  partition_key VARCHAR NOT NULL,
  seq           BIGINT NOT NULL,
  PRIMARY KEY (table_name, partition_key)
);
COMMENT ON TABLE _glacier_lake_dirty IS 'Hive partitions of the Parquet lake whose rows changed since their last export: written in the transaction of the commit that changed them (from the batch''s own columns, plus the rows its follow-up updates touch), cleared in the transaction that records their export. partition_key: JSON array of the partition values in path order (partition columns, then the UTC day of the date column). seq: from _glacier_lake_seq, the last commit that marked it.';

CREATE TABLE IF NOT EXISTS _glacier_lake_tables (
  table_name  VARCHAR PRIMARY KEY,
  layout      VARCHAR NOT NULL,
  exported_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE _glacier_lake_tables IS 'Tables whose Parquet files were last written in full with this layout (a hash of the columns, their types and the partition layout): the export rewrites only the marked partitions of such a table; a table missing here, or whose layout changed, or whose files are missing from the lake, is exported in full (fingerprints).';
