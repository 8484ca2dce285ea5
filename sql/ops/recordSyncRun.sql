INSERT INTO _glacier_sync_runs (run_id, partition_id, stream, mode, snapshot_at, started_at, updated_at, pages, rows, done, requests, cu, rejected_429, items, weight, page_limit, cut_pages, cut_items)
VALUES ($1, $2, $3, $4, $5, now(), now(), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
ON CONFLICT (run_id, partition_id) DO UPDATE SET
  pages = _glacier_sync_runs.pages + excluded.pages,
  rows = _glacier_sync_runs.rows + excluded.rows,
  done = excluded.done,
  requests = _glacier_sync_runs.requests + excluded.requests,
  cu = _glacier_sync_runs.cu + excluded.cu,
  rejected_429 = _glacier_sync_runs.rejected_429 + excluded.rejected_429,
  items = _glacier_sync_runs.items + excluded.items,
  weight = excluded.weight,
  page_limit = excluded.page_limit,
  cut_pages = _glacier_sync_runs.cut_pages + excluded.cut_pages,
  cut_items = _glacier_sync_runs.cut_items + excluded.cut_items,
  updated_at = excluded.updated_at;
