-- Retention of run records (config warehouse.runRecordsDays): rows of runs whose last update is
-- older than $1 days. The checkpoints, not these rows, carry what a sync resumes from.
DELETE FROM _glacier_sync_runs WHERE updated_at < now() - to_days($1::INTEGER);
