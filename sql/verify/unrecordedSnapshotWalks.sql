-- Snapshot-replace partitions whose last walk finished (its checkpoint counts the walk's rows) but
-- whose walk is missing from _glacier_snapshot_walks: the latest views would read an older snapshot.
-- Checkpoints written before walks were recorded carry no walkRows and are not checked.
SELECT c.partition_id, c.stream, CAST(c.cursor->>'snapshotAt' AS BIGINT) AS snapshot_at
FROM _glacier_checkpoints c
WHERE c.complete
  AND (c.cursor->>'walkRows') IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM _glacier_snapshot_walks w
    WHERE w.stream = c.stream AND w.partition_id = c.partition_id AND w.snapshot_at = CAST(c.cursor->>'snapshotAt' AS BIGINT)
  )
ORDER BY c.partition_id;
