-- Coverage and freshness per partition: what its checkpoint says was loaded, whether the last walk
-- finished, when it last committed and how long ago (lag, seconds). cursor holds the loaded range
-- (hwm for descending streams, from/next for ranges, snapshotAt for snapshots).
SELECT partition_id,
       stream,
       rows,
       pages,
       complete,
       CAST(cursor AS VARCHAR) AS cursor,
       strftime(timezone('UTC', updated_at), '%Y-%m-%dT%H:%M:%SZ') AS last_sync,
       CAST(epoch(now()) - epoch(updated_at) AS BIGINT) AS lag_seconds
FROM _glacier_checkpoints
ORDER BY stream, partition_id;
