-- Pages (and rows) per run and stream: the input of CU per stream and run.
SELECT run_id, stream, sum(pages) AS pages, sum(rows) AS rows
FROM _glacier_sync_runs
GROUP BY run_id, stream
ORDER BY run_id, stream;
