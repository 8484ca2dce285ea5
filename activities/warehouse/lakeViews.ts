import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { readLakeLayout } from './lakeLayout.ts';
import { sqlFile } from './sqlFile.ts';
import type { TableDef } from './tableDef.ts';

/** The view name under which a table with deferred columns keeps its files as written (spend and reward columns NULL). */
export const lakeFilesView = (table: string) => `${table}_files`;

/** The typed, empty relation of a lake table that has no file yet (a derived table before its first spend). */
function emptyRelation(def: TableDef): string {
  return `(SELECT ${def.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${ident(c.name)}`).join(', ')} WHERE false)`;
}

/**
 * Views over the Parquet lake at `dir`, one per table directory, each resolved to the table's current
 * generation once (so a view reads one whole generation even if an export publishes the next one
 * while the session runs). From lake layout 3 on, a table with deferred columns (TableDef.export.deferred:
 * pn_transaction_utxos, pn_transactions) is the join of its files (view `<table>_files`) with the
 * lake-only tables that hold those columns, so its rows equal the warehouse table's.
 */
export async function createLakeViews(connection: DuckDBConnection, dir: string, tables: readonly TableDef[], options: { database?: string } = {}): Promise<string[]> {
  // In another attached database when asked (tests compare the views with the warehouse's tables).
  const q = (name: string) => (options.database ? `${ident(options.database)}.${ident(name)}` : ident(name));
  const relation = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true }).filter((d) => (d.isDirectory() || d.isSymbolicLink()) && /^[a-z0-9_]+$/.test(d.name))) {
    const glob = join(realpathSync(join(dir, entry.name)), '**', '*.parquet');
    relation.set(entry.name, `read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = true)`);
  }
  const joined = readLakeLayout(dir) >= 3 ? tables.filter((t) => t.export.deferred && relation.has(t.name)) : [];
  for (const def of tables.filter((t) => t.lakeSource && !relation.has(t.name))) if (joined.some((b) => b.lakeDerived?.includes(def))) relation.set(def.name, emptyRelation(def));
  const created: string[] = [];
  // The plain tables first: the joined views read the derived tables' views.
  for (const [name, from] of relation) {
    if (joined.some((t) => t.name === name)) continue;
    await connection.run(`CREATE VIEW ${q(name)} AS SELECT * FROM ${from}`);
    created.push(name);
  }
  for (const base of joined) {
    await connection.run(`CREATE VIEW ${q(lakeFilesView(base.name))} AS SELECT * FROM ${relation.get(base.name)!}`);
    let sql = sqlFile(base.export.deferred!.view).replaceAll('{base}', q(lakeFilesView(base.name)));
    for (const d of base.lakeDerived ?? []) sql = sql.replaceAll(`{${d.name}}`, q(d.name));
    await connection.run(`CREATE VIEW ${q(base.name)} AS ${sql.trim().replace(/;$/, '')}`);
    created.push(base.name, lakeFilesView(base.name));
  }
  return created;
}
