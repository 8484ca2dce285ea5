-- Columns of the run table: a compute-unit column, once runs record CU, replaces the derived figure.
SELECT column_name FROM information_schema.columns WHERE table_name = '_glacier_sync_runs' ORDER BY ordinal_position;
