/**
 * A DuckDB size setting ('64MB', '1GB'), checked by the config and again when the warehouse opens,
 * since an export puts the limit in SQL text. Its own module so the config does not load DuckDB.
 */
export const DUCKDB_SIZE = /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;
