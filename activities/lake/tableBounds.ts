import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * A DuckLake's table-level column bounds set to unknown after each commit.
 *
 * Why: DuckLake 1.5.5 (the extension this project pins) merges a commit's bounds into the table's
 * only while the table's are known; once they are unknown (a commit whose file holds only NULLs of a
 * column), the next commit sets them to its own values alone. DuckDB's planner trusts them: a filter
 * outside them is answered with no rows and a sort packs values relative to the stored minimum, so
 * older values come back off by 2^32 (`pn_transaction_utxos.consuming_tx_timestamp` below its median
 * read 0 of 4,137: bench/lakeBounds.ts; TIMESTAMP columns alike). Unknown bounds are always
 * true, and DuckLake still skips files by each file's own bounds. Later DuckLake releases keep such
 * bounds unknown themselves (duckdb/ducklake#1411). A reader that plans between the night's commit
 * and this update sees what DuckLake wrote; the next export clears what a crash in between left.
 * Returns the column bounds it cleared.
 */
export async function clearTableBounds(conn: DuckDBConnection, alias: string): Promise<number> {
  const sql = `UPDATE __ducklake_metadata_${alias}.ducklake_table_column_stats SET min_value = NULL, max_value = NULL, contains_null = true
    WHERE min_value IS NOT NULL OR max_value IS NOT NULL OR contains_null IS DISTINCT FROM true`;
  return Number((await conn.run(sql)).rowsChanged);
}
