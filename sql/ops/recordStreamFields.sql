INSERT INTO _glacier_stream_fields (scope, path, items, always, first_run)
SELECT $1, f.path, f.items, f.always, $2 FROM (SELECT unnest($3::VARCHAR[]) AS path, unnest($4::BIGINT[]) AS items, unnest($5::BOOLEAN[]) AS always) AS f
ON CONFLICT (scope, path) DO UPDATE SET items = excluded.items, always = excluded.always;
