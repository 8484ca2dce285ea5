-- Did pipeline run $1 export? Every export stamps each table it covers in _glacier_lake_tables; an
-- export that finished after the run's first partition started was the run's own (or one beside it:
-- the lake it measures is then as new).
SELECT coalesce((SELECT max(exported_at) FROM _glacier_lake_tables) >= min(started_at), false) AS exported
FROM _glacier_sync_runs
WHERE run_id = $1;
