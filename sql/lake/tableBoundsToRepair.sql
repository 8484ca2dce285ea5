-- The table-level column bounds of a DuckLake ({meta}: its metadata catalog) that do not hold every
-- live data file's bounds, each with the bounds the files give (activities/lake/tableBounds.ts).
-- Compared as the column's values: integers and DECIMAL(p,0) as HUGEINT, other numbers as DOUBLE,
-- strings as text; other types are left as they are. Columns of nested types (parent_column) have none.
WITH cols AS (
  SELECT c.table_id, c.column_id,
         CASE WHEN regexp_matches(c.column_type, '^u?int(8|16|32|64|128)$') OR regexp_matches(c.column_type, '^decimal\(\d+,\s*0\)$') THEN 'integer'
              WHEN c.column_type IN ('float32', 'float64') OR c.column_type LIKE 'decimal%' THEN 'number'
              WHEN c.column_type = 'varchar' THEN 'text' END AS kind
  FROM {meta}.ducklake_column AS c
  JOIN {meta}.ducklake_table AS t ON t.table_id = c.table_id AND t.end_snapshot IS NULL
  WHERE c.end_snapshot IS NULL AND c.parent_column IS NULL
),
files AS (
  SELECT d.table_id, s.column_id, s.min_value, s.max_value, s.null_count
  FROM {meta}.ducklake_data_file AS d
  JOIN {meta}.ducklake_file_column_stats AS s ON s.data_file_id = d.data_file_id
  WHERE d.end_snapshot IS NULL
),
keyed AS (
  SELECT f.*, c.kind,
         CASE c.kind WHEN 'integer' THEN TRY_CAST(f.min_value AS HUGEINT) END AS imin, CASE c.kind WHEN 'integer' THEN TRY_CAST(f.max_value AS HUGEINT) END AS imax,
         CASE c.kind WHEN 'number' THEN TRY_CAST(f.min_value AS DOUBLE) END AS nmin, CASE c.kind WHEN 'number' THEN TRY_CAST(f.max_value AS DOUBLE) END AS nmax
  FROM files AS f JOIN cols AS c USING (table_id, column_id)
  WHERE c.kind IS NOT NULL
),
bounds AS (
  SELECT table_id, column_id, any_value(kind) AS kind,
         CASE any_value(kind) WHEN 'integer' THEN arg_min(min_value, imin) WHEN 'number' THEN arg_min(min_value, nmin) ELSE min(min_value) END AS min_value,
         CASE any_value(kind) WHEN 'integer' THEN arg_max(max_value, imax) WHEN 'number' THEN arg_max(max_value, nmax) ELSE max(max_value) END AS max_value,
         bool_or(null_count > 0) AS has_null
  FROM keyed GROUP BY table_id, column_id
),
checked AS (
  SELECT s.table_id, s.column_id, s.min_value AS old_min, s.max_value AS old_max, s.contains_null AS old_null, b.min_value AS files_min, b.max_value AS files_max,
         b.min_value IS NOT NULL AND (s.min_value IS NULL OR CASE b.kind WHEN 'integer' THEN TRY_CAST(s.min_value AS HUGEINT) > TRY_CAST(b.min_value AS HUGEINT) WHEN 'number' THEN TRY_CAST(s.min_value AS DOUBLE) > TRY_CAST(b.min_value AS DOUBLE) ELSE s.min_value > b.min_value END) AS low,
         b.max_value IS NOT NULL AND (s.max_value IS NULL OR CASE b.kind WHEN 'integer' THEN TRY_CAST(s.max_value AS HUGEINT) < TRY_CAST(b.max_value AS HUGEINT) WHEN 'number' THEN TRY_CAST(s.max_value AS DOUBLE) < TRY_CAST(b.max_value AS DOUBLE) ELSE s.max_value < b.max_value END) AS high,
         b.has_null AND NOT coalesce(s.contains_null, false) AS nulls
  FROM {meta}.ducklake_table_column_stats AS s
  JOIN bounds AS b USING (table_id, column_id)
)
-- Widened only: a bound that already holds the files' stays (a wider one is still true).
SELECT table_id, column_id, old_min, old_max, old_null,
       CASE WHEN low THEN files_min ELSE old_min END AS new_min,
       CASE WHEN high THEN files_max ELSE old_max END AS new_max,
       coalesce(old_null, false) OR nulls AS new_null
FROM checked WHERE low OR high OR nulls;
