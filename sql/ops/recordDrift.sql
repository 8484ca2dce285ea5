INSERT INTO _glacier_drift (stream, path, kind, first_run, last_run, first_seen, last_seen, count, sample)
VALUES ($1, $2, $3, $4, $4, now(), now(), $5, $6)
ON CONFLICT (stream, path, kind) DO UPDATE SET
  last_run = excluded.last_run,
  last_seen = excluded.last_seen,
  count = _glacier_drift.count + excluded.count;
