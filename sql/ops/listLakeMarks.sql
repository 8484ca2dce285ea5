SELECT table_name, partition_key, seq FROM _glacier_lake_dirty;
