-- The partition files one export removed, in one statement ($1: JSON list of {table_name, partition_path}).
DELETE FROM _glacier_exports AS x
USING (SELECT unnest(CAST($1 AS JSON)::STRUCT(table_name VARCHAR, partition_path VARCHAR)[], recursive := true)) AS d
WHERE x.table_name = d.table_name AND x.partition_path = d.partition_path;
