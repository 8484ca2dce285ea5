-- What each (run, partition) cost, per stream, in run order ($1: one run only, or NULL for all).
SELECT stream, run_id, mode, started_at, pages, items, requests, cu, rejected_429, weight, page_limit, cut_pages, cut_items
FROM _glacier_sync_runs
WHERE $1::VARCHAR IS NULL OR run_id = $1::VARCHAR
ORDER BY stream, started_at, partition_id;
