import { createHash } from 'node:crypto';
import { listValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { profileCommit, profiled } from '../warehouse/commitProfile.ts';
import { ident, sqlString } from '../warehouse/identifier.ts';
import { partitionColumns, partitionsFilter, valuesOfKey } from '../warehouse/lakeKeys.ts';
import { snapshotWalksExport } from '../warehouse/snapshotWalksTable.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { MAINTENANCE_MEMORY_LIMIT, type Warehouse } from '../warehouse/warehouse.ts';
import { checkIceberg, ICEBERG_TYPES } from './iceberg.ts';
import { attachLake } from './lake.ts';
import { lakeFiles, maintainLake, type MaintenanceOptions } from './maintenance.ts';
import { firstLine, LakeError, lakeNamespace, lakeWhere, type LakeSettings } from './settings.ts';
import { clearTableBounds } from './tableBounds.ts';

/**
 * The export: the partitions the warehouse's commits marked since the last export (lakeKeys.ts),
 * made equal to the warehouse's rows in ONE lake transaction, so a reader sees the whole night or
 * none of it, each night is a snapshot, and running it again changes nothing (the next export
 * repairs any crash). A table the lake lacks, or whose recorded layout differs, is compared whole.
 * Shards write their own partitions of the same tables; a commit that meets another's is retried.
 * Iceberg runs the same statements, its tables made before the night's transaction. The lake's
 * columns, partitions, upkeep and Iceberg's differences: docs/nights.md, The lake.
 */

export interface ExportResult {
  /** Data files the night's snapshot added, tables it changed, marked partitions the lake already held as they are. */
  files: number;
  tables: number;
  unchanged: number;
  /** Lake rows deleted (changed or gone) and inserted; tables compared whole instead of by their marks. */
  deleted: number;
  inserted?: number;
  fullTables?: number;
  /** The lake snapshot of the night (absent when nothing changed); the upkeep merged files, or failed (the next export runs it again). */
  snapshot?: number;
  merged?: boolean;
  upkeepError?: string;
  /** Attempts the night took (another writer's commit met it); Iceberg rows a checking pass wrote again (checkIceberg). */
  attempts?: number;
  repaired?: number;
}

export type ExportStep = 'attached' | 'maintained' | `table:${string}` | 'before-commit' | 'committed' | 'cleared';

export interface ExportOptions {
  tables?: string[];
  /** Compare every table whole instead of reading the marks (export --full). */
  full?: boolean;
  /** DuckDB's buffer limit while the export runs (default EXPORT_MEMORY_LIMIT). */
  memoryLimit?: string;
  /** This warehouse is one shard of several writing one lake. */
  shard?: string;
  /** The lake's upkeep before the night (maintenance.ts); false: none. */
  maintenance?: MaintenanceOptions | false;
  /** Tests: runs at each step (a crash injected there). */
  hook?: (step: ExportStep) => void | Promise<void>;
}

export const EXPORT_MEMORY_LIMIT = MAINTENANCE_MEMORY_LIMIT;

/** Attempts of a night whose commit conflicts with another writer's (another shard's export). */
const ATTEMPTS = 8;

/** The lake's tables: the catalog's and the finished snapshot walks. */
export function lakeTables(catalog: readonly TableDef[]): TableDef[] {
  return [...catalog, snapshotWalksExport];
}

/** A table as the lake holds it. */
export interface LakeTable {
  def: TableDef;
  /** The lake's columns: the warehouse's (in the lake's types), `month` on a dated table, then ROW_HASH. */
  columns: { name: string; type: string }[];
  /** The rows of the warehouse table `from` (default: the table of the same name) that `where` selects, in the lake's columns. */
  rows: (where?: string, from?: string) => string;
  partitionBy: string[];
}

/**
 * The lake's last column in every table: DuckDB's 64-bit `hash` of the row's other lake columns, as
 * the export wrote it. The export compares it with the warehouse row's to find what changed, so it
 * reads from the lake only the keys, this and the partition filter's columns, not every column
 * (`pn_transaction_utxos`' marked partitions at 100x history: 35-37 CPU ms against 68-72, bench/lakeDiff.ts).
 */
export const ROW_HASH = '_glacier_hash';

/** Warehouse types a lake format lacks, and the lake's type for each. */
const LAKE_TYPES: Record<LakeSettings['format'], Record<string, string>> = { ducklake: { HUGEINT: 'DECIMAL(38,0)' }, iceberg: ICEBERG_TYPES };

export function lakeTable(def: TableDef, format: LakeSettings['format'] = 'ducklake'): LakeTable {
  const dated = def.export.dateFrom !== undefined;
  if (def.columns.some((c) => c.name === 'month') && dated) throw new Error(`${def.name}: a dated table has no column of its own named month`);
  if (def.columns.some((c) => c.name === ROW_HASH)) throw new Error(`${def.name}: a table has no column of its own named ${ROW_HASH}`);
  const columns = def.columns.map((c) => ({ name: c.name, type: LAKE_TYPES[format][c.type] ?? c.type }));
  const select = def.columns.map((c, i) => (columns[i].type !== c.type ? `CAST(${ident(c.name)} AS ${columns[i].type}) AS ${ident(c.name)}` : ident(c.name)));
  if (dated) {
    columns.push({ name: 'month', type: 'VARCHAR' });
    select.push(`substr(${partitionColumns(def).at(-1)!.expr}, 1, 7) AS month`);
  }
  const hashed = columns.map((c) => ident(c.name)).join(', ');
  const hashType = LAKE_TYPES[format].UBIGINT ?? 'UBIGINT';
  const hash = hashType === 'UBIGINT' ? `hash(${hashed})` : `CAST(hash(${hashed}) AS ${hashType})`;
  columns.push({ name: ROW_HASH, type: hashType });
  const rows = (where = 'true', from = ident(def.name)) => `SELECT *, ${hash} AS ${ROW_HASH} FROM (SELECT ${select.join(', ')} FROM ${from} WHERE ${where})`;
  return { def, columns, rows, partitionBy: [...def.export.partitionBy, ...(dated ? ['month'] : [])] };
}

/** What the lake's table was built with: its columns, partitioning and the lake it went to. */
function signature(t: LakeTable, lake: LakeSettings): string {
  const where = lake.format === 'iceberg' ? { format: 'iceberg-1', endpoint: lake.endpoint, warehouse: lake.warehouse, namespace: lake.namespace } : { format: 'ducklake-1', catalog: lake.catalog, dataPath: lake.dataPath };
  const text = JSON.stringify({ ...where, columns: t.columns, partitionBy: t.partitionBy });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

type Mark = { table: string; key: string; seq: bigint };

/**
 * Another writer's commit met this one (another shard's export): "database is locked" from SQLite, a
 * conflict from DuckLake, an Iceberg catalog's 409 ("Conflict_409 ... CommitFailedException"), or an
 * Iceberg table whose first snapshot another writer committed after this transaction began ("does
 * not have a reachable state in this transaction").
 */
const retryable = (error: unknown) => /conflict|database is locked|busy|reachable state/i.test(error instanceof Error ? error.message : String(error));

/** An error of the night as one line naming the lake's catalog or bucket (or the error as it is). */
function lakeError(error: unknown, lake: LakeSettings): Error {
  if (error instanceof LakeError) return error;
  const line = firstLine(error);
  if (lake.format === 'iceberg') return /iceberg|HTTP|catalog|s3a?:\/\//i.test(line) ? new LakeError(`lake catalog ${lakeWhere(lake)}: ${line}`, { cause: error }) : error instanceof Error ? error : new Error(line);
  if (/s3a?:\/\/|HTTP/i.test(line)) return new LakeError(`lake data path ${lake.dataPath}: ${line}`, { cause: error });
  if (/sqlite|postgres|database is locked|metadata/i.test(line)) return new LakeError(`lake catalog ${lake.catalog}: ${line}`, { cause: error });
  return error instanceof Error ? error : new Error(line);
}

/** Exports the night to the lake (its steps profiled with GLACIER_COMMIT_PROF: bench/exportSteps.ts); the caller passes the catalog (allTables()), as the warehouse layer does not import the streams. */
export const exportLake = (warehouse: Warehouse, catalog: readonly TableDef[], lake: LakeSettings, options: ExportOptions = {}) => profiled('export:total', () => exportNight(warehouse, catalog, lake, options)).finally(() => profileCommit(0));

async function exportNight(warehouse: Warehouse, catalog: readonly TableDef[], lake: LakeSettings, options: ExportOptions): Promise<ExportResult> {
  const all = lakeTables(catalog);
  const unknown = (options.tables ?? []).filter((t) => !all.some((d) => d.name === t));
  if (unknown.length) throw new Error(`unknown table(s) for export: ${unknown.join(', ')}`);
  const tables = all.filter((d) => !options.tables || options.tables.includes(d.name)).map((d) => lakeTable(d, lake.format));
  // Commits mark from now on; what they changed before is in the tables this export compares whole (never written).
  await warehouse.startChangeMarks();
  if (!options.full && (await nothingToExport(warehouse, tables, lake))) return { files: 0, tables: 0, unchanged: 0, deleted: 0, inserted: 0, fullTables: 0, attempts: 0 };
  const conn = await warehouse.connect();
  // A Parquet file per partition a statement touches, each with its buffers: 64 MB ran out on the tiny world.
  const release = await warehouse.raiseMemory(options.memoryLimit ?? EXPORT_MEMORY_LIMIT);
  try {
    const alias = await profiled('export:attach', () => attachLake(conn, lake, { alias: 'glacier_lake' }));
    try {
      await options.hook?.('attached');
      // Before the night, so it merges only earlier nights' files; a failure waits for the next export (docs/nights.md, Lake upkeep).
      const upkeep = options.maintenance === false || lake.format !== 'ducklake' ? undefined : await profiled('export:upkeep', () => maintainLake(conn, alias, lake, options.maintenance || undefined)).catch((error: unknown) => lakeError(error, lake));
      await options.hook?.('maintained');
      for (let attempt = 1; ; attempt++) {
        try {
          const { result, cleared } = await applyNight(conn, alias, tables, lake, options, !options.tables);
          if (lake.format === 'iceberg') {
            const fresh = async () => (await reattach(conn, alias, lake), (await applyNight(conn, alias, tables, lake, options, !options.tables)).result);
            const repaired = await checkIceberg(result.deleted + result.inserted!, lake, ATTEMPTS, async () => ((r) => r.deleted + r.inserted!)(await fresh()));
            if (repaired) result.repaired = repaired;
          }
          const size = lake.format === 'ducklake' ? await profiled('export:size', () => lakeFiles(conn, alias)) : undefined;
          // Outside the lake's transaction, through the warehouse's writer (never beside a batch commit).
          await profiled('export:bookkeeping', () => warehouse.writeTransaction(async (w) => {
            if (cleared.length) await w.run(sqlFile('ops/clearLakeMarks.sql'), [listValue(cleared.map((m) => m.table)), listValue(cleared.map((m) => m.key)), listValue(cleared.map((m) => m.seq))]);
            await w.run(sqlFile('ops/upsertLakeTables.sql'), [listValue(tables.map((t) => t.def.name)), listValue(tables.map((t) => signature(t, lake)))]);
            for (const [key, value] of size ? ([['lake_files', size.files], ['lake_bytes', size.bytes]] as const) : []) await w.run(sqlFile('ops/setGlacierMeta.sql'), [key, String(value)]);
          }));
          await options.hook?.('cleared');
          return { ...result, attempts: attempt, ...(upkeep instanceof Error ? { upkeepError: upkeep.message } : { merged: upkeep === true }) };
        } catch (error) {
          await conn.run('ROLLBACK').catch(() => undefined);
          if (attempt >= ATTEMPTS || !retryable(error)) throw lakeError(error, lake);
          await new Promise((r) => setTimeout(r, 100 * 2 ** attempt * (0.5 + Math.random())));
          // Iceberg: attached again, so the replay sees the catalog as it is now, not this connection's cached tables.
          if (lake.format === 'iceberg') await reattach(conn, alias, lake);
        }
      }
    } finally {
      await conn.run(`DETACH ${alias}`).catch(() => undefined);
    }
  } finally {
    await release().catch(() => undefined);
    conn.closeSync();
  }
}

const reattach = (conn: DuckDBConnection, alias: string, lake: LakeSettings) => conn.run(`DETACH ${alias}`).then(() => attachLake(conn, lake, { alias }));

/** Nothing marked, tables as built: no attach and no upkeep (an idle night's export was 0.6 CPU s of them). */
async function nothingToExport(warehouse: Warehouse, tables: LakeTable[], lake: LakeSettings): Promise<boolean> {
  const names = new Set(tables.map((t) => t.def.name));
  if ((await warehouse.query(sqlFile('ops/listLakeMarks.sql'))).some((r) => names.has(String(r.table_name)))) return false;
  const layouts = new Map((await warehouse.query(sqlFile('ops/listLakeTables.sql'))).map((r) => [String(r.table_name), String(r.layout)]));
  return tables.every((t) => layouts.get(t.def.name) === signature(t, lake));
}

/** One attempt: the night in one transaction of the warehouse (reads) and the lake (writes). */
async function applyNight(conn: DuckDBConnection, alias: string, tables: LakeTable[], lake: LakeSettings, options: ExportOptions, clearOthers: boolean): Promise<{ result: ExportResult; cleared: Mark[] }> {
  const result: ExportResult = { files: 0, tables: 0, unchanged: 0, deleted: 0, inserted: 0, fullTables: 0 };
  const lakeName = (t: LakeTable) => `${alias}.${lakeNamespace(lake)}.${ident(t.def.name)}`;
  // Iceberg's tables are made before the night, each statement its own commit (see the top).
  const early = lake.format === 'iceberg' ? await ensureTables(conn, alias, tables, lake) : undefined;
  await conn.run('BEGIN TRANSACTION');
  const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
  const marks: Mark[] = (await read(sqlFile('ops/listLakeMarks.sql'))).map((r) => ({ table: String(r.table_name), key: String(r.partition_key), seq: BigInt(r.seq as bigint) }));
  const layouts = new Map((await read(sqlFile('ops/listLakeTables.sql'))).map((r) => [String(r.table_name), String(r.layout)]));
  // zstd, as the Parquet lake wrote: DuckLake's default (snappy) takes about 2x the bytes (bench/lakeShapes.ts).
  if (lake.format === 'ducklake' && !(await read(`SELECT 1 FROM ${alias}.options() WHERE option_name = 'parquet_compression' AND value = 'zstd'`)).length) await conn.run(`CALL ${alias}.set_option('parquet_compression', 'zstd')`);
  const made = early ?? (await profiled('export:ensure', () => ensureTables(conn, alias, tables, lake)));
  const cleared: Mark[] = clearOthers ? marks.filter((m) => !tables.some((t) => t.def.name === m.table)) : [];
  for (const t of tables) {
    const own = marks.filter((m) => m.table === t.def.name);
    const created = made.has(t.def.name);
    const values = own.map((m) => valuesOfKey(t.def, m.key));
    const whole = created || options.full || layouts.get(t.def.name) !== signature(t, lake) || values.some((v) => v === undefined);
    cleared.push(...own);
    if (!whole && own.length === 0) continue;
    let changed: { deleted: number; inserted: number };
    if (created) {
      changed = { deleted: 0, inserted: Number((await conn.run(`INSERT INTO ${lakeName(t)} (${t.columns.map((c) => ident(c.name)).join(', ')}) ${t.rows()}`)).rowsChanged) };
    } else {
      const filter = whole ? { where: 'true', params: [] } : partitionsFilter(t.def, values as (string | null)[][]);
      const files = whole ? undefined : lakePartitionsClause(t, values as (string | null)[][]);
      changed = await profiled('export:diff', () => applyDiff(conn, lakeName(t), t, filter, options.shard !== undefined, lake.format === 'ducklake', files));
      if (!whole && changed.deleted + changed.inserted === 0) result.unchanged += own.length;
    }
    if (whole) result.fullTables!++;
    if (changed.deleted + changed.inserted > 0) result.tables++;
    result.deleted += changed.deleted;
    result.inserted! += changed.inserted;
    await options.hook?.(`table:${t.def.name}`);
  }
  if (lake.format === 'ducklake') await conn.run(`CALL ${alias}.set_commit_message('glacier-etl', 'export', extra_info => ${sqlString(JSON.stringify({ shard: options.shard ?? null, tables: result.tables, inserted: result.inserted, deleted: result.deleted }))})`);
  await options.hook?.('before-commit');
  await profiled('export:commit', () => conn.run('COMMIT'));
  await options.hook?.('committed');
  // After every night, also one that changed nothing (a crash after the last commit): tableBounds.ts.
  if (lake.format === 'ducklake') await profiled('export:bounds', () => clearTableBounds(conn, alias));
  if (result.tables > 0 && lake.format === 'ducklake') {
    const [snap] = await read(`SELECT max(snapshot_id) AS id FROM ${alias}.snapshots()`);
    result.snapshot = Number(snap.id);
    const [files] = await read(`SELECT count(*) AS n FROM __ducklake_metadata_${alias}.ducklake_data_file WHERE begin_snapshot = ${result.snapshot}`);
    result.files = Number(files.n);
  }
  return { result, cleared };
}

/** Makes every lake table match its warehouse table (ensureTable); returns the names of those created. */
async function ensureTables(conn: DuckDBConnection, alias: string, tables: LakeTable[], lake: LakeSettings): Promise<Set<string>> {
  const schema = lakeNamespace(lake);
  const existing = new Map<string, Map<string, string>>();
  // DESCRIBE, not duckdb_columns(): that lists an Iceberg table not yet read as one column `__` UNKNOWN.
  for (const r of (await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = '${alias}' AND schema_name = '${schema}'`)).getRowObjectsJS()) {
    const described = (await conn.runAndReadAll(`DESCRIBE ${alias}.${schema}.${ident(String(r.table_name))}`)).getRowObjectsJS();
    existing.set(String(r.table_name), new Map(described.map((c) => [String(c.column_name), String(c.column_type)])));
  }
  const created = new Set<string>();
  let raced = false;
  for (const t of tables) {
    // An Iceberg table another shard created since the listing (409 "already exists"): the others are
    // made, then the night is replayed on the catalog attached again. Going on through this
    // connection's failed create, a commit replaced the other shard's first snapshot without a 409.
    const made = await ensureTable(conn, `${alias}.${schema}.${ident(t.def.name)}`, t, existing.get(t.def.name), lake.format === 'ducklake').catch((error: unknown) => {
      if (lake.format !== 'iceberg' || !/already exists/i.test(String(error))) throw error;
      raced = true;
      return false;
    });
    if (made) created.add(t.def.name);
  }
  if (raced) throw new LakeError(`lake catalog ${lakeWhere(lake)}: conflict: another writer created lake tables at the same moment`);
  return created;
}

/**
 * Makes the lake's table match the warehouse's columns: created (and partitioned) when missing,
 * columns added or dropped, and created again when a column's type changed. True when the table is
 * new (the caller fills it). Iceberg tables take no COMMENT (DuckDB 1.5.5: "Only ALTER TABLE is supported").
 */
async function ensureTable(conn: DuckDBConnection, name: string, t: LakeTable, existing: Map<string, string> | undefined, comment: boolean): Promise<boolean> {
  const retyped = existing && t.columns.some((c) => existing.has(c.name) && existing.get(c.name) !== c.type);
  if (existing && !retyped) {
    for (const c of t.columns.filter((c) => !existing.has(c.name))) await conn.run(`ALTER TABLE ${name} ADD COLUMN ${ident(c.name)} ${c.type}`);
    for (const c of [...existing.keys()].filter((c) => !t.columns.some((d) => d.name === c))) await conn.run(`ALTER TABLE ${name} DROP COLUMN ${ident(c)}`);
    return false;
  }
  if (retyped) await conn.run(`DROP TABLE ${name}`);
  await conn.run(`CREATE TABLE ${name} (${t.columns.map((c) => `${ident(c.name)} ${c.type}`).join(', ')})`);
  if (t.partitionBy.length) await conn.run(`ALTER TABLE ${name} SET PARTITIONED BY (${t.partitionBy.map(ident).join(', ')})`);
  if (comment) await conn.run(`COMMENT ON TABLE ${name} IS ${sqlString(t.def.comment)}`);
  return true;
}

/**
 * The marked partitions as one IN list per lake partition column (a superset when several vary), which
 * DuckLake 1.5.5 prunes files on (not a tuple IN or an OR of conjunctions). NULL: not pruned on.
 */
function lakePartitionsClause(t: LakeTable, partitions: (string | null)[][]): string | undefined {
  const dated = t.def.export.dateFrom !== undefined;
  const lists = t.partitionBy.map(() => new Set<string | null>());
  for (const values of partitions) {
    const lakeValues = dated ? [...values.slice(0, -1), values.at(-1)?.slice(0, 7) ?? null] : values;
    lakeValues.forEach((v, i) => lists[i].add(v));
  }
  const clauses = t.partitionBy.flatMap((column, i) => (lists[i].size === 0 || lists[i].has(null) ? [] : [`${ident(column)} IN (${[...lists[i]].map((v) => sqlString(v!)).join(', ')})`]));
  return clauses.length ? clauses.join(' AND ') : undefined;
}

/** The name in `_glacier_lake_diff` of a lake row's i-th primary key column. */
const keyAlias = (i: number) => `_glacier_k${i}`;

/**
 * The statement that keeps in `_glacier_lake_diff` the rows where the lake table `name` (its rows
 * `lakeWhere` selects) and the warehouse's `warehouseRows` (t.rows) differ. One pass over both sides,
 * each row known by its key and its hash (ROW_HASH: the lake's as stored, the warehouse's computed): a
 * lake row without an equal warehouse row is gone or changed (kept as its key columns `_glacier_k<i>`,
 * and its DuckLake row id with `rowIds`), a warehouse row without an equal lake row is new or changed
 * (kept with its columns), so the lake is written only where they differ (a night mostly inserts) and
 * its rows are read once, their other columns not at all. A lake row without a hash is changed.
 * bench/lakeDiff.ts times it.
 */
export function lakeDiffSql(name: string, t: LakeTable, lakeWhere: string, warehouseRows: string, rowIds: boolean): string {
  const k = t.def.primaryKey.map((c, i) => ({ name: ident(c), alias: keyAlias(i) }));
  const lakeSide = `SELECT ${rowIds ? 'rowid AS _glacier_rowid, ' : ''}${k.map((c) => `${c.name} AS ${c.alias}`).join(', ')}, ${ROW_HASH} AS _glacier_h, true AS _glacier_l FROM ${name} WHERE ${lakeWhere}`;
  const on = [...k.map((c) => `l.${c.alias} IS NOT DISTINCT FROM w.${c.name}`), `l._glacier_h = w.${ROW_HASH}`].join(' AND ');
  return `CREATE OR REPLACE TEMP TABLE _glacier_lake_diff AS SELECT l.* EXCLUDE (_glacier_h, _glacier_l), w.*, l._glacier_l IS NOT NULL AS _glacier_old, w.${ROW_HASH} IS NOT NULL AS _glacier_new
    FROM (${lakeSide}) AS l FULL JOIN (${warehouseRows}) AS w ON ${on} WHERE l._glacier_l IS NULL OR w.${ROW_HASH} IS NULL`;
}

/** The rows `filter` selects made equal in the lake to the warehouse's (a shard's lake side: the rows it answers for). */
async function applyDiff(conn: DuckDBConnection, name: string, t: LakeTable, filter: { where: string; params: DuckDBValue[] }, shard: boolean, rowIds: boolean, files?: string): Promise<{ deleted: number; inserted: number }> {
  const cols = t.columns.map((c) => ident(c.name)).join(', ');
  const groups = t.def.export.partitionBy.map(ident).join(', ');
  const scope = [
    ...(shard && t.def.export.owned ? [t.def.export.owned] : []),
    ...(shard && filter.where === 'true' && groups ? [`(${groups}) IN (SELECT DISTINCT ${groups} FROM ${ident(t.def.name)})`] : []),
    ...(files ? [files] : []),
  ];
  const where = [filter.where, ...scope].join(' AND ');
  const key = t.def.primaryKey.map(ident).join(', ');
  await profiled(`export:read:${t.def.name}`, () => conn.run(lakeDiffSql(name, t, where, t.rows(filter.where), rowIds), filter.params));
  const [counts] = (await conn.runAndReadAll('SELECT count(*) FILTER (_glacier_old) AS old, count(*) FILTER (_glacier_new) AS new FROM _glacier_lake_diff')).getRowObjectsJS();
  const old = `SELECT ${rowIds ? '_glacier_rowid' : t.def.primaryKey.map((_, i) => keyAlias(i)).join(', ')} FROM _glacier_lake_diff WHERE _glacier_old`;
  // DuckLake finds a row by its row id without reading the files' keys (a fifth of the CPU of a delete by key).
  const deleteSql = rowIds ? `DELETE FROM ${name} WHERE rowid IN (${old})` : `DELETE FROM ${name} WHERE ${where} AND (${key}) IN (${old})`;
  const deleted = Number(counts.old) ? Number((await profiled(`export:delete:${t.def.name}`, () => conn.run(deleteSql, rowIds ? [] : filter.params))).rowsChanged) : 0;
  const inserted = Number(counts.new) ? Number((await profiled(`export:insert:${t.def.name}`, () => conn.run(`INSERT INTO ${name} (${cols}) SELECT ${cols} FROM _glacier_lake_diff WHERE _glacier_new`))).rowsChanged) : 0;
  return { deleted, inserted };
}
