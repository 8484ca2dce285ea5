-- Run records (deltas: pages, rows and costs add up per run and partition), one row per list position ((run, partition) distinct).
INSERT INTO _glacier_sync_runs (run_id, partition_id, stream, mode, snapshot_at, started_at, updated_at, pages, rows, done, requests, cu, rejected_429, items, weight, page_limit, cut_pages, cut_items)
SELECT r.run_id, r.partition_id, r.stream, r.mode, r.snapshot_at, now(), now(), r.pages, r.rows, r.done, r.requests, r.cu, r.rejected_429, r.items, r.weight, r.page_limit, r.cut_pages, r.cut_items
FROM (
  SELECT unnest($1::VARCHAR[]) AS run_id, unnest($2::VARCHAR[]) AS partition_id, unnest($3::VARCHAR[]) AS stream, unnest($4::VARCHAR[]) AS mode,
    unnest($5::BIGINT[]) AS snapshot_at, unnest($6::BIGINT[]) AS pages, unnest($7::BIGINT[]) AS rows, unnest($8::BOOLEAN[]) AS done,
    unnest($9::BIGINT[]) AS requests, unnest($10::BIGINT[]) AS cu, unnest($11::BIGINT[]) AS rejected_429, unnest($12::BIGINT[]) AS items,
    unnest($13::INTEGER[]) AS weight, unnest($14::INTEGER[]) AS page_limit, unnest($15::BIGINT[]) AS cut_pages, unnest($16::BIGINT[]) AS cut_items
) AS r
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
