DELETE FROM _glacier_exports WHERE table_name = $1 AND partition_path = $2;
