-- Stream tables that carry a PRIMARY KEY constraint (created by a version before keys moved to the merge).
SELECT DISTINCT table_name
FROM duckdb_constraints()
WHERE constraint_type = 'PRIMARY KEY'
  AND schema_name = 'main'
  AND table_name NOT LIKE '\_glacier\_%' ESCAPE '\';
