import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlFile } from '../warehouse/sqlFile.ts';

/**
 * A DuckLake's table-level column bounds made to hold every live data file's again.
 *
 * Why: DuckLake 1.5.5 (the extension this project pins) forgets a column's table bounds when one
 * commit writes a file whose values of that column are all NULL (a P-chain partition of
 * `pn_transaction_utxos.consuming_tx_timestamp`), and the next commit that writes values sets them to
 * that commit's values alone. DuckDB's planner trusts them: a filter outside them is answered with no
 * rows (`consuming_tx_timestamp` below its median read 0 of 4,137: bench/lakeBounds.ts) and an ORDER BY or GROUP BY packs
 * the column's values relative to the stored minimum, so older values come back off by 2^32. Later
 * DuckLake releases keep the bounds unknown instead (duckdb/ducklake#1411).
 *
 * So after each commit of the lake the export widens, in the metadata catalog, every bound narrower
 * than its files' (sql/lake/tableBoundsToRepair.sql), each row updated only if it is still what was
 * read (another writer's commit since then keeps its own). A reader that plans a query between the
 * night's commit and this update sees the bounds DuckLake wrote; the next export repairs what a crash
 * in between left. Returns the column bounds it changed.
 */
export async function repairTableBounds(conn: DuckDBConnection, alias: string): Promise<number> {
  const meta = `__ducklake_metadata_${alias}`;
  const rows = (await conn.runAndReadAll(sqlFile('lake/tableBoundsToRepair.sql').replaceAll('{meta}', meta))).getRowObjectsJS();
  // Compare-and-set: the row is updated only while its bounds are still the ones read.
  const update = `UPDATE ${meta}.ducklake_table_column_stats SET min_value = $1, max_value = $2, contains_null = $3
    WHERE table_id = $4 AND column_id = $5 AND min_value IS NOT DISTINCT FROM $6 AND max_value IS NOT DISTINCT FROM $7`;
  let changed = 0;
  for (const r of rows) {
    const params = [r.new_min, r.new_max, Boolean(r.new_null), r.table_id, r.column_id, r.old_min, r.old_max] as DuckDBValue[];
    changed += Number((await conn.run(update, params)).rowsChanged);
  }
  return changed;
}
