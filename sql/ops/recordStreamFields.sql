-- Field records of a commit's batches, one row per list position ((scope, path) distinct): $1 the partition (scope), $2 its run.
INSERT INTO _glacier_stream_fields (scope, path, items, always, first_run)
SELECT f.scope, f.path, f.items, f.always, f.first_run
FROM (
  SELECT unnest($1::VARCHAR[]) AS scope, unnest($2::VARCHAR[]) AS first_run, unnest($3::VARCHAR[]) AS path, unnest($4::BIGINT[]) AS items,
    unnest($5::BOOLEAN[]) AS always
) AS f
ON CONFLICT (scope, path) DO UPDATE SET items = excluded.items, always = excluded.always;
