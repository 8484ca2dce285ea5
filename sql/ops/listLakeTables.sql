SELECT table_name, layout FROM _glacier_lake_tables;
