-- The checkpoints of a commit's batches, one row per list position (partition ids distinct); $8: the commit's time.
INSERT OR REPLACE INTO _glacier_checkpoints (partition_id, stream, page_token, cursor, rows, pages, complete, updated_at)
SELECT c.partition_id, c.stream, c.page_token, c.cursor::JSON, c.rows, c.pages, c.complete, $8::TIMESTAMPTZ
FROM (
  SELECT unnest($1::VARCHAR[]) AS partition_id, unnest($2::VARCHAR[]) AS stream, unnest($3::VARCHAR[]) AS page_token, unnest($4::VARCHAR[]) AS cursor,
    unnest($5::BIGINT[]) AS rows, unnest($6::BIGINT[]) AS pages, unnest($7::BOOLEAN[]) AS complete
) AS c;
