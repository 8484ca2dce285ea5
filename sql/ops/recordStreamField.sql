INSERT INTO _glacier_stream_fields (stream, path, first_run) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING;
