INSERT OR REPLACE INTO _glacier_lake_tables (table_name, layout, exported_at) VALUES ($1, $2, now());
