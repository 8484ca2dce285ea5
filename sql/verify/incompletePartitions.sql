-- Partitions whose last walk did not finish.
SELECT partition_id, stream, rows, pages, updated_at
FROM _glacier_checkpoints
WHERE NOT complete
ORDER BY partition_id;
