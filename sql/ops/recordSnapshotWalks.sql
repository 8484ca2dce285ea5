-- Finished snapshot walks, one row per list position (idempotent: a retried commit of the same walk writes the same row).
INSERT OR REPLACE INTO _glacier_snapshot_walks (stream, partition_id, snapshot_at, params, run_id, rows, pages, completed_at)
SELECT w.stream, w.partition_id, w.snapshot_at, w.params::JSON, w.run_id, w.rows, w.pages, now()
FROM (
  SELECT unnest($1::VARCHAR[]) AS stream, unnest($2::VARCHAR[]) AS partition_id, unnest($3::BIGINT[]) AS snapshot_at, unnest($4::VARCHAR[]) AS params,
    unnest($5::VARCHAR[]) AS run_id, unnest($6::BIGINT[]) AS rows, unnest($7::BIGINT[]) AS pages
) AS w;
