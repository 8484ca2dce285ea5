SELECT table_name, partition_path, fingerprint FROM _glacier_exports;
