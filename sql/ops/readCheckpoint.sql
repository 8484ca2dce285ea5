SELECT partition_id, stream, page_token, cursor::VARCHAR AS cursor, rows, pages, complete, strftime(updated_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at
FROM _glacier_checkpoints
WHERE partition_id = $1;
