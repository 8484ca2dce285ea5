-- Only the mark the export read: a commit that marked the partition again since then left a newer seq.
DELETE FROM _glacier_lake_dirty WHERE table_name = $1 AND partition_key = $2 AND seq = $3;
