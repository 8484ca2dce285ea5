INSERT INTO _glacier_stream_fields (scope, path, items, always, first_run) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (scope, path) DO UPDATE SET items = excluded.items, always = excluded.always;
