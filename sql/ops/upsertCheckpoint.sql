INSERT OR REPLACE INTO _glacier_checkpoints (partition_id, stream, page_token, cursor, rows, pages, complete, updated_at)
VALUES ($1, $2, $3, $4::JSON, $5, $6, $7, $8::TIMESTAMPTZ);
