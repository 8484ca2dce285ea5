-- Sync history: one row per pipeline run (rows, pages, partitions, wall time from first start to last commit).
SELECT run_id,
       any_value(mode) AS mode,
       strftime(timezone('UTC', min(started_at)), '%Y-%m-%dT%H:%M:%SZ') AS started,
       count(*) AS partitions,
       count(*) FILTER (WHERE done) AS partitions_done,
       sum(rows) AS rows,
       sum(pages) AS pages,
       CAST(epoch(max(updated_at)) - epoch(min(started_at)) AS DOUBLE) AS duration_seconds
FROM _glacier_sync_runs
GROUP BY run_id
ORDER BY min(started_at), run_id;
