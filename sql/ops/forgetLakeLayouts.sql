-- A schema file was applied (a column filled, rows seeded): rows changed without a commit marking
-- them, so the next export takes the full path for every table.
DELETE FROM _glacier_lake_tables;
