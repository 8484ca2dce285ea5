-- The size of the warehouse at the end of each pipeline run, beside what the run cost (issue 26 item 5:
-- the report plots a night's cost against the warehouse's size). Idempotent.
CREATE TABLE IF NOT EXISTS _glacier_run_sizes (
  run_id          VARCHAR PRIMARY KEY,
  mode            VARCHAR,
  started_at      TIMESTAMPTZ,
  synced_at       TIMESTAMPTZ,
  recorded_at     TIMESTAMPTZ NOT NULL,
  partitions      BIGINT NOT NULL,
  pages           BIGINT NOT NULL,
  requests        BIGINT NOT NULL,
  cu              BIGINT NOT NULL,
  rows_written    BIGINT NOT NULL,
  rows_stored     BIGINT NOT NULL,
  table_rows      JSON NOT NULL,
  warehouse_bytes BIGINT NOT NULL,
  lake_files      BIGINT,
  lake_bytes      BIGINT
);
COMMENT ON TABLE _glacier_run_sizes IS 'One row per pipeline run, written when the run ends (its applyRetention step, after the sync and the export, before the nightly verify): what the warehouse held then and what the run cost. run_id: the pipeline run id of _glacier_sync_runs. mode, started_at (first partition start), synced_at (last commit), partitions, pages, requests, cu, rows_written: summed from the run''s _glacier_sync_runs rows when the run ends, so the figures outlive their retention (warehouse.runRecordsDays); NULL/0 for a run that synced no partition. rows_stored: exact count(*) over every stream table; table_rows: the same per table (JSON object). warehouse_bytes: the DuckDB file and its WAL. lake_files, lake_bytes: the Parquet files of the whole lake (every shard''s), when the run exported; NULL otherwise. Kept forever: one small row per run.';
