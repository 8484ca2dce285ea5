-- The highest change number committed (0 before any): what a verify that starts now covers.
SELECT coalesce(max(seq), 0) AS seq, epoch(now())::BIGINT AS now FROM _glacier_changed_partitions;
