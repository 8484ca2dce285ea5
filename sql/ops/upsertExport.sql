INSERT OR REPLACE INTO _glacier_exports (table_name, partition_path, fingerprint, rows, exported_at) VALUES ($1, $2, $3, $4, now());
