import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { snapshotWalksExport } from './snapshotWalksTable.ts';
import { sqlFile } from './sqlFile.ts';
import type { TableDef } from './tableDef.ts';
import type { Warehouse } from './warehouse.ts';
import { ensureLakeLayout } from './lakeLayout.ts';

/**
 * Parquet export: one zstd file per hive partition (partition columns of the table, then date= from
 * its epoch-second column), e.g. evm_blocks/chain_id=43114/date=2026-11-21/data.parquet.
 *
 * - Incremental: each partition's rows are fingerprinted (count + xor of row hashes) in DuckDB and
 *   compared with _glacier_exports; only changed partitions are rewritten, vanished ones deleted.
 * - Shards: each writes data-<shard>.parquet (see LakeLayout), so one glob reads their union.
 * - Atomic: a file is written under outDir/.tmp, fsynced, then renamed over its final name, so a
 *   reader sees the old file or the new one, never half of one. Empty tables produce no files.
 * - Exact: HUGEINT columns are written as DECIMAL(38,0) (DuckDB would write HUGEINT as DOUBLE).
 * - Contained: partition values are percent-encoded path segments and every path is checked to stay
 *   under outDir.
 */

export interface ExportResult {
  /** Files (re)written by this export. */
  files: number;
  /** Tables with at least one exported partition. */
  tables: number;
  /** Partitions left as they were (unchanged since the last export). */
  unchanged: number;
  /** Partition files removed because their rows are gone. */
  deleted: number;
}

const NULL_SEGMENT = '__HIVE_DEFAULT_PARTITION__';

/** DuckDB's buffer limit while an export runs (the worker's sync-time limit is warehouse.memoryLimit). */
export const EXPORT_MEMORY_LIMIT = '256MB';

function segment(value: unknown): string {
  if (value === null || value === undefined) return NULL_SEGMENT;
  const encoded = encodeURIComponent(String(value)).replace(/\./g, '%2E');
  return encoded === '' ? NULL_SEGMENT : encoded;
}

function partitionKeys(def: TableDef): { name: string; expr: string }[] {
  const keys = def.export.partitionBy.map((c) => ({ name: c, expr: ident(c) }));
  if (def.export.dateFrom) keys.push({ name: 'date', expr: `strftime(to_timestamp(${ident(def.export.dateFrom)}) AT TIME ZONE 'UTC', '%Y-%m-%d')` });
  return keys;
}

/** The filter selecting one partition's rows, with its bound values. */
function partitionFilter(keys: { expr: string }[], values: unknown[]): { where: string; params: DuckDBValue[] } {
  const clauses: string[] = [];
  const params: DuckDBValue[] = [];
  keys.forEach((k, i) => {
    if (values[i] === null || values[i] === undefined) clauses.push(`${k.expr} IS NULL`);
    else {
      params.push(values[i] as DuckDBValue);
      clauses.push(`${k.expr} = $${params.length}`);
    }
  });
  return { where: clauses.length ? clauses.join(' AND ') : 'true', params };
}

function inside(root: string, path: string): string {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel.startsWith('..') || rel.includes(`${sep}..${sep}`) || resolve(root, rel) !== full) throw new Error(`export path escapes the output directory: ${path}`);
  return full;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeEmptyDirs(dir: string, stopAt: string): void {
  for (let d = dir; d.startsWith(stopAt) && d !== stopAt; d = dirname(d)) {
    try {
      if (readdirSync(d).length > 0) return;
      rmdirSync(d);
    } catch {
      return;
    }
  }
}

async function exportTable(conn: DuckDBConnection, def: TableDef, root: string, tmpDir: string, known: Map<string, string>, fileName: string): Promise<{ written: string[]; unchanged: number; deleted: string[]; current: Map<string, { fingerprint: string; rows: number }> }> {
  const keys = partitionKeys(def);
  const fileColumns = def.columns.filter((c) => !def.export.partitionBy.includes(c.name));
  const select = fileColumns.map((c) => (c.type === 'HUGEINT' ? `CAST(${ident(c.name)} AS DECIMAL(38,0)) AS ${ident(c.name)}` : ident(c.name))).join(', ');
  const rowHash = `hash(${def.columns.map((c) => ident(c.name)).join(', ')})`;
  const groupCols = keys.map((k, i) => `${k.expr} AS p${i}`).join(', ');
  const fingerprints = (
    await conn.runAndReadAll(
      `SELECT ${groupCols ? `${groupCols}, ` : ''}count(*) AS n, bit_xor(${rowHash})::VARCHAR AS h FROM ${ident(def.name)}${keys.length ? ` GROUP BY ${keys.map((_, i) => `p${i}`).join(', ')}` : ''}`,
    )
  ).getRowObjectsJS();

  const written: string[] = [];
  const current = new Map<string, { fingerprint: string; rows: number }>();
  let unchanged = 0;
  for (const fp of fingerprints) {
    const values = keys.map((_, i) => fp[`p${i}`]);
    const partPath = [def.name, ...keys.map((k, i) => `${k.name}=${segment(values[i])}`)].join('/');
    const fingerprint = `${String(fp.n)}:${String(fp.h)}`;
    current.set(partPath, { fingerprint, rows: Number(fp.n) });
    if (known.get(partPath) === fingerprint) {
      unchanged++;
      continue;
    }
    const target = inside(root, join(partPath, fileName));
    const tmp = join(tmpDir, `${randomUUID()}.parquet`);
    const { where, params } = partitionFilter(keys, values);
    await conn.run(`COPY (SELECT ${select} FROM ${ident(def.name)} WHERE ${where}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`, params);
    fsyncPath(tmp);
    renameInto(tmp, target);
    written.push(partPath);
  }
  const deleted: string[] = [];
  for (const partPath of known.keys()) {
    if (current.has(partPath)) continue;
    const target = inside(root, join(partPath, fileName));
    rmSync(target, { force: true });
    removeEmptyDirs(dirname(target), root);
    deleted.push(partPath);
  }
  return { written, unchanged, deleted, current };
}

/**
 * Where this warehouse's files go in the lake. One warehouse writes data.parquet; each shard writes
 * data-<shard>.parquet beside the others' in the same hive partition directories (so one glob reads
 * the union and no two writers ever touch one file), with its own temporary directory.
 */
export interface LakeLayout {
  shard?: string;
}

const fileNameOf = (layout: LakeLayout) => (layout.shard ? `data-${layout.shard}.parquet` : 'data.parquet');

/**
 * mkdir -p, then rename. Shards share the lake's directories: another shard's export may remove a
 * directory it just emptied between our mkdir and rename, so one ENOENT is retried.
 */
function renameInto(tmp: string, target: string): void {
  for (let attempt = 0; ; attempt++) {
    mkdirSync(dirname(target), { recursive: true });
    try {
      renameSync(tmp, target);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw error;
    }
  }
  fsyncPath(dirname(target));
}

/**
 * Exports the catalog's tables (all, or `tables`) and the finished snapshot walks to hive-partitioned
 * Parquet under outDir. The caller passes the catalog (allTables() of activities/streams/catalog.ts):
 * the warehouse layer sits below the streams and does not import them.
 */
export async function exportParquet(warehouse: Warehouse, catalog: readonly TableDef[], outDir: string, options: { tables?: string[] } = {}, layout: LakeLayout = {}): Promise<ExportResult> {
  const root = resolve(outDir);
  const defs = [...catalog, snapshotWalksExport].filter((t) => !options.tables || options.tables.includes(t.name));
  const unknown = (options.tables ?? []).filter((t) => !defs.some((d) => d.name === t));
  if (unknown.length) throw new Error(`unknown table(s) for export: ${unknown.join(', ')}`);
  ensureLakeLayout(root);
  const tmpDir = join(root, layout.shard ? `.tmp-${layout.shard}` : '.tmp');
  mkdirSync(tmpDir, { recursive: true });
  const conn = await warehouse.connect();
  const result: ExportResult = { files: 0, tables: 0, unchanged: 0, deleted: 0 };
  // One COPY per partition re-reads its table: with the sync-time buffer limit every read goes back
  // to disk, so the export runs with a larger buffer and restores the limit afterwards.
  await conn.run(`SET memory_limit = '${EXPORT_MEMORY_LIMIT}'`);
  try {
    // One read transaction: every partition is cut from the same committed snapshot.
    await conn.run('BEGIN TRANSACTION');
    const state = (await conn.runAndReadAll(sqlFile('ops/listExports.sql'))).getRowObjectsJS();
    const updates: { table: string; path: string; fingerprint: string; rows: number }[] = [];
    const removals: { table: string; path: string }[] = [];
    for (const def of defs) {
      const known = new Map(state.filter((s) => s.table_name === def.name).map((s) => [String(s.partition_path), String(s.fingerprint)]));
      const r = await exportTable(conn, def, root, tmpDir, known, fileNameOf(layout));
      result.files += r.written.length;
      result.unchanged += r.unchanged;
      result.deleted += r.deleted.length;
      if (r.current.size > 0) result.tables++;
      for (const path of r.written) updates.push({ table: def.name, path, ...r.current.get(path)! });
      for (const path of r.deleted) removals.push({ table: def.name, path });
    }
    await conn.run('COMMIT');
    // Export bookkeeping goes through the writer so it never interleaves with a batch commit.
    await warehouse.withWriter(async (w) => {
      await w.run('BEGIN TRANSACTION');
      try {
        for (const u of updates) await w.run(sqlFile('ops/upsertExport.sql'), [u.table, u.path, u.fingerprint, u.rows]);
        for (const d of removals) await w.run(sqlFile('ops/deleteExport.sql'), [d.table, d.path]);
        await w.run('COMMIT');
      } catch (error) {
        await w.run('ROLLBACK');
        throw error;
      }
    });
  } finally {
    await conn.run(`SET memory_limit = '${warehouse.memoryLimit}'`).catch(() => undefined);
    conn.closeSync();
    rmSync(tmpDir, { recursive: true, force: true });
  }
  return result;
}
