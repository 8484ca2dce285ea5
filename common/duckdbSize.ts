/**
 * A DuckDB size setting ('64MB', '1GB'), checked by the config and again when the warehouse opens,
 * since an export puts the limit in SQL text. Its own module so the config does not load DuckDB.
 */
export const DUCKDB_SIZE = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

const UNIT_BYTES: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** The bytes a DuckDB size setting names (DuckDB's own units: MB = 1000^2, MiB = 1024^2). */
export function duckdbSizeBytes(size: string): number {
  const match = DUCKDB_SIZE.exec(size.trim());
  if (!match) throw new Error(`${JSON.stringify(size)}: expected a size such as '64MB' or '1GB'`);
  return Number(match[1]) * UNIT_BYTES[match[2].toLowerCase()];
}
