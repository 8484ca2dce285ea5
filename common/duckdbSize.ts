/**
 * A DuckDB size setting ('64MB', '1GB'), checked by the config and again when the warehouse opens,
 * since an export puts the limit in SQL text. Its own module so the config does not load DuckDB.
 */
export const DUCKDB_SIZE = /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

const UNIT: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** Bytes of a size that matches DUCKDB_SIZE (DuckDB reads KB/MB/GB as powers of 1000, KiB/MiB/GiB as powers of 1024). */
export function duckdbSizeBytes(size: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(size.trim());
  if (!m || !DUCKDB_SIZE.test(size.trim())) throw new Error(`${JSON.stringify(size)}: expected a size such as '64MB' or '1GB'`);
  return Math.round(Number(m[1]) * UNIT[m[2].toLowerCase()]);
}
