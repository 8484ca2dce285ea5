INSERT INTO _glacier_sync_runs (run_id, partition_id, stream, mode, snapshot_at, started_at, updated_at, pages, rows, done)
VALUES ($1, $2, $3, $4, $5, now(), now(), $6, $7, $8)
ON CONFLICT (run_id, partition_id) DO UPDATE SET
  pages = _glacier_sync_runs.pages + excluded.pages,
  rows = _glacier_sync_runs.rows + excluded.rows,
  done = excluded.done,
  updated_at = excluded.updated_at;
