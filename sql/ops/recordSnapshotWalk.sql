-- A finished snapshot walk (idempotent: a retried commit of the same walk writes the same row).
INSERT OR REPLACE INTO _glacier_snapshot_walks (stream, partition_id, snapshot_at, params, run_id, rows, pages, completed_at)
VALUES ($1, $2, $3, $4::JSON, $5, $6, $7, now());
