-- The nights: per pipeline run, what it cost and what the warehouse held when it ended
-- (_glacier_run_sizes, one row per run; kept when the run records are pruned).
SELECT run_id,
       mode,
       strftime(timezone('UTC', coalesce(started_at, recorded_at)), '%Y-%m-%dT%H:%M:%SZ') AS started,
       cu,
       requests,
       pages,
       rows_written,
       rows_stored,
       warehouse_bytes,
       lake_files,
       lake_bytes,
       CAST(epoch(synced_at) - epoch(started_at) AS DOUBLE) AS sync_seconds,
       -- The export runs between the last commit and the record; a run that did not export has none.
       CASE WHEN lake_files IS NOT NULL THEN CAST(epoch(recorded_at) - epoch(synced_at) AS DOUBLE) END AS export_seconds,
       CAST(epoch(recorded_at) - epoch(started_at) AS DOUBLE) AS wall_seconds,
       CAST(table_rows AS VARCHAR) AS table_rows
FROM _glacier_run_sizes
ORDER BY recorded_at, run_id;
