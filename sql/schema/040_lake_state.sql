-- What the lake export has to apply, recorded as the warehouse changes (activities/warehouse/lakeKeys.ts).
-- Idempotent.

-- Every commit takes a number from this sequence for the partitions it marks: an export records a
-- partition as written only if it still holds the number the export read, so a commit that lands while an export runs
-- leaves its mark for the next export.
CREATE SEQUENCE IF NOT EXISTS _glacier_lake_seq;

CREATE TABLE IF NOT EXISTS _glacier_changed_partitions (
  table_name    VARCHAR NOT NULL,
  partition_key VARCHAR NOT NULL,
  seq           BIGINT NOT NULL,
  exported_seq  BIGINT,
  PRIMARY KEY (table_name, partition_key)
);
COMMENT ON TABLE _glacier_changed_partitions IS 'Partitions (a table''s partition columns and a day) whose rows commits changed: one row per partition ever changed, written in the transaction of the commit that changed it (from the batch''s own columns, plus the rows its follow-up updates touch). partition_key: JSON array of the partition values (partition columns, then the UTC day of the date column). seq: from _glacier_lake_seq, the last commit that changed it. exported_seq: the seq the lake export last applied (set after the lake''s commit); seq > exported_seq or NULL: the lake has not caught up with it. Nightly verify checks the partitions whose seq is above its watermark (_glacier_verify_state).';

CREATE TABLE IF NOT EXISTS _glacier_verify_state (
  kind        VARCHAR PRIMARY KEY,
  seq         BIGINT NOT NULL,
  verified_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE _glacier_verify_state IS 'Watermark of the last verify without problems (kind ''changed''): the _glacier_lake_seq value and the time it covered. verify --changed checks what commits changed above it; a verify that finds a problem leaves it, so the problem is reported again.';

CREATE TABLE IF NOT EXISTS _glacier_lake_tables (
  table_name  VARCHAR PRIMARY KEY,
  layout      VARCHAR NOT NULL,
  exported_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE _glacier_lake_tables IS 'Tables the lake export keeps up to date from the marks, with the layout it built them with (a hash of their lake columns, partitioning, catalog and data path): a table missing here or whose layout changed is compared whole with the lake (activities/lake/export.ts).';
