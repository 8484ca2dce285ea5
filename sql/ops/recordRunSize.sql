-- The size record of pipeline run $1 (sql/schema/070_run_sizes.sql): the run's cost summed from its
-- run records, with the sizes measured by activities/warehouse/runSizes.ts. A retried activity replaces it.
INSERT OR REPLACE INTO _glacier_run_sizes
  (run_id, mode, started_at, synced_at, recorded_at, partitions, pages, requests, cu, rows_written,
   rows_stored, table_rows, warehouse_bytes, lake_files, lake_bytes)
SELECT $1, any_value(mode), min(started_at), max(updated_at), now(), count(*), coalesce(sum(pages), 0),
       coalesce(sum(requests), 0), coalesce(sum(cu), 0), coalesce(sum(rows), 0),
       $2::BIGINT, $3::JSON, $4::BIGINT, $5::BIGINT, $6::BIGINT
FROM _glacier_sync_runs
WHERE run_id = $1;
