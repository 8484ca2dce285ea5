SELECT stream, kind, path, count, first_run, last_run, CAST(last_seen AS VARCHAR) AS last_seen, sample
FROM _glacier_drift
ORDER BY stream, kind, path;
