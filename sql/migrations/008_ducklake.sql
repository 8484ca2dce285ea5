-- Step 8: the lake is a DuckLake (activities/lake/). The Parquet export's fingerprints go. The first
-- export after the upgrade builds the DuckLake from the warehouse: no table's recorded layout is a
-- DuckLake one (_glacier_lake_tables), and it clears the marks of the Parquet lake's own tables.
DROP TABLE IF EXISTS _glacier_exports;
