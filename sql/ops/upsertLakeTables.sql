-- The tables an export covered and the layout it wrote them with: $1 table names, $2 layouts.
INSERT OR REPLACE INTO _glacier_lake_tables (table_name, layout, exported_at)
SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[]), now();
