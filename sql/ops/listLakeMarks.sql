-- Partitions changed since the export last wrote them.
SELECT table_name, partition_key, seq FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq;
