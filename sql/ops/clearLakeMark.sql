-- Only the change the export read: a commit that changed the partition again since then left a newer seq.
UPDATE _glacier_changed_partitions SET exported_seq = seq WHERE table_name = $1 AND partition_key = $2 AND seq = $3;
