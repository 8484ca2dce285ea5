SELECT stream, path, kind, first_run, last_run, CAST(first_seen AS VARCHAR) AS first_seen, CAST(last_seen AS VARCHAR) AS last_seen, count, sample
FROM _glacier_drift
ORDER BY stream, kind, path;
