-- CU per run and stream as the runs recorded them (used once _glacier_sync_runs has a cu column).
SELECT run_id, stream, sum(pages) AS pages, sum(cu) AS cu
FROM _glacier_sync_runs
GROUP BY run_id, stream
ORDER BY run_id, stream;
