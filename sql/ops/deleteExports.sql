-- Partition files an export removed (their rows are gone): $1 table names, $2 partition paths.
DELETE FROM _glacier_exports AS e
USING (SELECT unnest($1::VARCHAR[]) AS table_name, unnest($2::VARCHAR[]) AS partition_path) AS d
WHERE e.table_name = d.table_name AND e.partition_path = d.partition_path;
