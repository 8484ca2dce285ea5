-- Partitions commits changed since the verify watermark $1 (see _glacier_verify_state).
SELECT table_name, partition_key, seq FROM _glacier_changed_partitions WHERE seq > $1;
