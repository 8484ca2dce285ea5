import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { layoutSignature, partitionColumns, partitionFilter, partitionsFilter, valuesOfKey } from './lakeKeys.ts';
import { snapshotWalksExport } from './snapshotWalksTable.ts';
import { sqlFile } from './sqlFile.ts';
import type { TableDef } from './tableDef.ts';
import type { Warehouse } from './warehouse.ts';
import { ensureLakeLayout } from './lakeLayout.ts';

/**
 * Parquet export: one zstd file per hive partition (partition columns of the table, then date= from
 * its epoch-second column), e.g. evm_blocks/chain_id=43114/date=2026-11-21/data.parquet.
 *
 * - Incremental from the commits: every commit marks the partitions it changed in _glacier_changed_partitions
 *   (lakeKeys.ts); the export rewrites only those (each read by its own key and day range, so its
 *   cost is the partition's rows, not the table's) and clears their marks in the transaction that
 *   records the files. A crash after the files and before that transaction leaves the marks: the
 *   next export writes them again, so an export is never lost.
 * - Full path, for a table never exported with its current layout (first export, a column added), a
 *   lake missing one of its files, or `full`: every partition's rows are fingerprinted (count + xor
 *   of row hashes) and compared with _glacier_exports; changed or missing ones are rewritten,
 *   vanished ones deleted.
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
  /** Tables that took the full path (fingerprints over every row) instead of their marks. */
  fullTables?: number;
}

export interface ExportOptions {
  tables?: string[];
  /** Fingerprint every partition of every table (the fallback path) instead of reading the marks. */
  full?: boolean;
  /** Tests: runs after the files are in place and before the transaction that records them. */
  afterFiles?: () => void | Promise<void>;
}

const NULL_SEGMENT = '__HIVE_DEFAULT_PARTITION__';

/** DuckDB's buffer limit while an export runs (the worker's sync-time limit is warehouse.memoryLimit). */
export const EXPORT_MEMORY_LIMIT = '256MB';

function segment(value: unknown): string {
  if (value === null || value === undefined) return NULL_SEGMENT;
  const encoded = encodeURIComponent(String(value)).replace(/\./g, '%2E');
  return encoded === '' ? NULL_SEGMENT : encoded;
}

function partitionPath(def: TableDef, values: readonly (string | null)[]): string {
  return [def.name, ...partitionColumns(def).map((k, i) => `${k.name}=${segment(values[i])}`)].join('/');
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

interface TableExport {
  written: string[];
  unchanged: number;
  deleted: string[];
  current: Map<string, { fingerprint: string; rows: number }>;
}

/** What one table's export writes and where (shared by the full and the marked path). */
class TableWriter {
  readonly select: string;
  /**
   * A partition's fingerprint: row count, xor and sum of row hashes. DuckDB combines the hashes of
   * hash(a, b, ...) by xor, so two rows whose same column changed the same way (last_seen_at 1 -> 2
   * on two rows) leave the xor of their hashes as it was; the sum does not.
   */
  readonly fingerprint: string;

  constructor(
    private readonly conn: DuckDBConnection,
    readonly def: TableDef,
    private readonly root: string,
    private readonly tmpDir: string,
    private readonly fileName: string,
  ) {
    const fileColumns = def.columns.filter((c) => !def.export.partitionBy.includes(c.name));
    this.select = fileColumns.map((c) => (c.type === 'HUGEINT' ? `CAST(${ident(c.name)} AS DECIMAL(38,0)) AS ${ident(c.name)}` : ident(c.name))).join(', ');
    const rowHash = `hash(${def.columns.map((c) => ident(c.name)).join(', ')})`;
    this.fingerprint = `count(*) AS n, bit_xor(${rowHash})::VARCHAR || ':' || sum(${rowHash}::HUGEINT)::VARCHAR AS h`;
  }

  target(partPath: string): string {
    return inside(this.root, join(partPath, this.fileName));
  }

  async write(partPath: string, values: readonly (string | null)[]): Promise<void> {
    const target = this.target(partPath);
    const tmp = join(this.tmpDir, `${randomUUID()}.parquet`);
    const { where, params } = partitionFilter(this.def, values);
    await this.conn.run(`COPY (SELECT ${this.select} FROM ${ident(this.def.name)} WHERE ${where}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`, params);
    fsyncPath(tmp);
    renameInto(tmp, target);
  }

  remove(partPath: string): void {
    const target = this.target(partPath);
    rmSync(target, { force: true });
    removeEmptyDirs(dirname(target), this.root);
  }
}

/** Full path: fingerprints every partition of the table (one scan of it) and rewrites the changed or missing ones. */
async function exportTableFull(conn: DuckDBConnection, w: TableWriter, known: Map<string, string>): Promise<TableExport> {
  const keys = partitionColumns(w.def);
  const groupCols = keys.map((k, i) => `${k.expr} AS p${i}`).join(', ');
  const fingerprints = (
    await conn.runAndReadAll(
      `SELECT ${groupCols ? `${groupCols}, ` : ''}${w.fingerprint} FROM ${ident(w.def.name)}${keys.length ? ` GROUP BY ${keys.map((_, i) => `p${i}`).join(', ')}` : ''}`,
    )
  ).getRowObjectsJS();

  const written: string[] = [];
  const current = new Map<string, { fingerprint: string; rows: number }>();
  let unchanged = 0;
  for (const fp of fingerprints) {
    const values = keys.map((_, i) => (fp[`p${i}`] === null || fp[`p${i}`] === undefined ? null : String(fp[`p${i}`])));
    const partPath = partitionPath(w.def, values);
    const fingerprint = `${String(fp.n)}:${String(fp.h)}`;
    current.set(partPath, { fingerprint, rows: Number(fp.n) });
    if (known.get(partPath) === fingerprint && existsSync(w.target(partPath))) {
      unchanged++;
      continue;
    }
    await w.write(partPath, values);
    written.push(partPath);
  }
  const deleted: string[] = [];
  for (const partPath of known.keys()) {
    if (current.has(partPath)) continue;
    w.remove(partPath);
    deleted.push(partPath);
  }
  return { written, unchanged, deleted, current };
}

/**
 * Up to this many marked partitions of a table are fingerprinted by one UNION ALL branch each (each
 * keeps its own row-group pruning); more by one grouped scan of the range that bounds them (on an
 * idle night of the small world, 37 marked days of pn_transaction_utxos: 200 CPU ms as 37 branches,
 * 60 as one scan; 2 of evm_blocks: 7 ms as branches, 15 as one scan).
 */
const FINGERPRINT_BRANCHES = 4;

/** The row count and hashes of each marked partition with rows, by partition path: one statement. */
async function markedFingerprints(conn: DuckDBConnection, w: TableWriter, parts: [string, (string | null)[]][]): Promise<Map<string, { n: unknown; h: unknown }>> {
  const out = new Map<string, { n: unknown; h: unknown }>();
  if (parts.length === 0) return out;
  if (parts.length <= FINGERPRINT_BRANCHES) {
    const params: DuckDBValue[] = [];
    const branches = parts.map(([, values], i) => {
      const filter = partitionFilter(w.def, values, params.length);
      params.push(...filter.params);
      return `SELECT ${i} AS i, ${w.fingerprint} FROM ${ident(w.def.name)} WHERE ${filter.where}`;
    });
    for (const fp of (await conn.runAndReadAll(branches.join('\nUNION ALL\n'), params)).getRowObjectsJS()) out.set(parts[Number(fp.i)][0], { n: fp.n, h: fp.h });
    return out;
  }
  const keys = partitionColumns(w.def, 't');
  const { where, params } = partitionsFilter(w.def, 't', parts.map(([, values]) => values));
  const sql = `SELECT ${keys.map((k, i) => `${k.expr} AS p${i}`).join(', ')}, ${w.fingerprint} FROM ${ident(w.def.name)} AS t WHERE ${where} GROUP BY ALL`;
  for (const fp of (await conn.runAndReadAll(sql, params)).getRowObjectsJS()) {
    out.set(partitionPath(w.def, keys.map((_, i) => (fp[`p${i}`] === null || fp[`p${i}`] === undefined ? null : String(fp[`p${i}`])))), { n: fp.n, h: fp.h });
  }
  return out;
}

/**
 * Marked path: only the partitions commits marked. They are fingerprinted over their own rows (the
 * same fingerprint as the full path, so either path can follow the other; one statement for the
 * table's marks: a sync marks every partition its batches touched, most of them unchanged, and one
 * statement each was most of an idle night's export) and each is rewritten when it differs from the
 * recorded one; a partition left without rows loses its file.
 */
async function exportTableMarked(conn: DuckDBConnection, w: TableWriter, known: Map<string, string>, marked: (string | null)[][]): Promise<TableExport> {
  const written: string[] = [];
  const deleted: string[] = [];
  const current = new Map<string, { fingerprint: string; rows: number }>();
  let unchanged = 0;
  const parts = new Map<string, (string | null)[]>();
  for (const values of marked) parts.set(partitionPath(w.def, values), values);
  const fingerprints = await markedFingerprints(conn, w, [...parts]);
  for (const [partPath, values] of parts) {
    const fp = fingerprints.get(partPath);
    const rows = fp ? Number(fp.n) : 0;
    if (rows === 0) {
      if (known.has(partPath)) {
        w.remove(partPath);
        deleted.push(partPath);
      }
      continue;
    }
    const fingerprint = `${rows}:${String(fp!.h)}`;
    current.set(partPath, { fingerprint, rows });
    if (known.get(partPath) === fingerprint) {
      unchanged++;
      continue;
    }
    await w.write(partPath, values);
    written.push(partPath);
  }
  return { written, unchanged: unchanged + [...known.keys()].filter((p) => !parts.has(p)).length, deleted, current };
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

interface Mark {
  table: string;
  key: string;
  seq: bigint;
}

/**
 * Exports the catalog's tables (all, or `tables`) and the finished snapshot walks to hive-partitioned
 * Parquet under outDir. The caller passes the catalog (allTables() of activities/streams/catalog.ts):
 * the warehouse layer sits below the streams and does not import them.
 */
export async function exportParquet(warehouse: Warehouse, catalog: readonly TableDef[], outDir: string, options: ExportOptions = {}, layout: LakeLayout = {}): Promise<ExportResult> {
  const root = resolve(outDir);
  const defs = [...catalog, snapshotWalksExport].filter((t) => !options.tables || options.tables.includes(t.name));
  const unknown = (options.tables ?? []).filter((t) => !defs.some((d) => d.name === t));
  if (unknown.length) throw new Error(`unknown table(s) for export: ${unknown.join(', ')}`);
  ensureLakeLayout(root);
  const tmpDir = join(root, layout.shard ? `.tmp-${layout.shard}` : '.tmp');
  mkdirSync(tmpDir, { recursive: true });
  const fileName = fileNameOf(layout);
  const conn = await warehouse.connect();
  const result: ExportResult = { files: 0, tables: 0, unchanged: 0, deleted: 0, fullTables: 0 };
  // A table on the full path is read by one COPY per partition: with the sync-time buffer limit every
  // read goes back to disk, so the first such table raises the limit, restored afterwards. The marked
  // path reads only its partitions and keeps the limit (lowering it again evicts what the export
  // loaded: that SET was a fifth of an idle night's export).
  let raised = false;
  try {
    // One read transaction: every partition is cut from the same committed snapshot, and the marks
    // read are exactly the changes that snapshot holds.
    await conn.run('BEGIN TRANSACTION');
    const state = (await conn.runAndReadAll(sqlFile('ops/listExports.sql'))).getRowObjectsJS();
    const layouts = new Map((await conn.runAndReadAll(sqlFile('ops/listLakeTables.sql'))).getRowObjectsJS().map((r) => [String(r.table_name), String(r.layout)]));
    const marks: Mark[] = (await conn.runAndReadAll(sqlFile('ops/listLakeMarks.sql'))).getRowObjectsJS().map((r) => ({ table: String(r.table_name), key: String(r.partition_key), seq: BigInt(r.seq as bigint) }));
    const updates: { table: string; path: string; fingerprint: string; rows: number }[] = [];
    const removals: { table: string; path: string }[] = [];
    const cleared: Mark[] = [];
    const fullTables: TableDef[] = [];
    for (const def of defs) {
      const known = new Map(state.filter((s) => s.table_name === def.name).map((s) => [String(s.partition_path), String(s.fingerprint)]));
      const own = marks.filter((m) => m.table === def.name);
      const values = own.map((m) => valuesOfKey(def, m.key));
      const w = new TableWriter(conn, def, root, tmpDir, fileName);
      const full =
        options.full ||
        layouts.get(def.name) !== layoutSignature(def) ||
        values.some((v) => v === undefined) ||
        [...known.keys()].some((p) => !existsSync(w.target(p)));
      if (full && !raised) {
        await conn.run(`SET memory_limit = '${EXPORT_MEMORY_LIMIT}'`);
        raised = true;
      }
      const r = full ? await exportTableFull(conn, w, known) : await exportTableMarked(conn, w, known, values as (string | null)[][]);
      if (full) {
        result.fullTables!++;
        fullTables.push(def);
      }
      result.files += r.written.length;
      result.unchanged += r.unchanged;
      result.deleted += r.deleted.length;
      if (r.current.size > 0 || (!full && known.size > r.deleted.length)) result.tables++;
      for (const path of r.written) updates.push({ table: def.name, path, ...r.current.get(path)! });
      for (const path of r.deleted) removals.push({ table: def.name, path });
      cleared.push(...own);
    }
    await conn.run('COMMIT');
    await options.afterFiles?.();
    // Export bookkeeping goes through the writer so it never interleaves with a batch commit. A mark
    // is cleared only if no commit marked its partition again since the snapshot read (same seq).
    await warehouse.withWriter(async (wr) => {
      await wr.run('BEGIN TRANSACTION');
      try {
        // One statement each (a statement per file and mark was a third of an idle night's export).
        const json = (rows: object[]) => JSON.stringify(rows, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
        if (updates.length) await wr.run(sqlFile('ops/upsertExports.sql'), [json(updates.map((u) => ({ table_name: u.table, partition_path: u.path, fingerprint: u.fingerprint, rows: u.rows })))]);
        if (removals.length) await wr.run(sqlFile('ops/deleteExports.sql'), [json(removals.map((d) => ({ table_name: d.table, partition_path: d.path })))]);
        if (cleared.length) await wr.run(sqlFile('ops/clearLakeMarks.sql'), [json(cleared.map((m) => ({ table_name: m.table, partition_key: m.key, seq: m.seq })))]);
        for (const def of fullTables) await wr.run(sqlFile('ops/upsertLakeTable.sql'), [def.name, layoutSignature(def)]);
        await wr.run('COMMIT');
      } catch (error) {
        await wr.run('ROLLBACK');
        throw error;
      }
    });
  } finally {
    if (raised) await conn.run(`SET memory_limit = '${warehouse.memoryLimit}'`).catch(() => undefined);
    conn.closeSync();
    rmSync(tmpDir, { recursive: true, force: true });
  }
  return result;
}
