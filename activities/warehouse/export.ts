import { rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { listValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { dateWhenScan, layoutSignature, partitionColumns, partitionFilter, partitionsFilter, spanRange, valuesOfKey } from './lakeKeys.ts';
import { snapshotWalksExport } from './snapshotWalksTable.ts';
import { sqlFile } from './sqlFile.ts';
import type { TableDef } from './tableDef.ts';
import { MAINTENANCE_MEMORY_LIMIT, type Warehouse } from './warehouse.ts';
import { ensureLakeLayout } from './lakeLayout.ts';
import { TableGenerations } from './lakeGenerations.ts';
import { profileCommit, profiled } from './commitProfile.ts';

/**
 * Parquet export, lake layout 3 (layout 2's files, lakeGenerations.ts, plus the lake-only tables below): `<lake>/<table>` links to the table's current
 * generation, whose hive keys are the table's partition columns then month=YYYY-MM, e.g.
 * evm_blocks/chain_id=43114/month=2026-11/day-2026-11-21.parquet for a day of the group's current
 * month and evm_blocks/chain_id=43114/month=2026-10/month.parquet for a past month (undated tables:
 * <partition columns>/data.parquet).
 *
 * - Incremental from the commits: every commit marks the (day) partitions it changed in
 *   _glacier_changed_partitions (lakeKeys.ts); the export fingerprints only those (each read by its
 *   own key and day range, so its cost is the partition's rows, not the table's), rewrites the files
 *   that hold a changed one (a day file, or a past month's file from the table's rows of that month),
 *   and clears their marks in the transaction that records the fingerprints. A crash before that
 *   transaction leaves the marks: the next export writes them again, so an export is never lost.
 * - Compaction: when a group's newest day enters a new month, the next generation holds the previous
 *   month as one file instead of its day files (TableWriter.layout).
 * - Atomic per table: every change goes into a new generation (unchanged files hard-linked), and one
 *   rename of the table's link publishes it, so a reader that resolved the link sees one whole
 *   generation: the night's changes, compaction included, or none of them.
 * - Full path, for a table never exported with its current layout (first export, a column added, a
 *   lake converted from layout 1) or `full`: every partition's rows are fingerprinted (count + xor and
 *   sum of row hashes) and compared with _glacier_exports. A file missing from the latest generation
 *   is written again from the table without it.
 * - Facts that happen later (lake layout 3): a table's `export.deferred` columns are written NULL for
 *   the rows they concern and fingerprinted so, and its `lakeDerived` tables (rows from their
 *   `lakeSource` SELECT, dated by when the fact happened) hold them: a spend or a reward changes a
 *   partition of the night's day, not the old row's. They take the full path with their base table.
 * - Shards: each writes its files with -<shard> before .parquet (see LakeLayout) into the same
 *   generations, so one glob reads their union.
 * - Exact: HUGEINT columns are written as DECIMAL(38,0) (DuckDB would write HUGEINT as DOUBLE).
 * - Contained: partition values are percent-encoded path segments and every path is checked to stay
 *   under the generation's directory.
 */

export interface ExportResult {
  /** Parquet files written by this export (new generations link the others). */
  files: number;
  /** Tables with at least one exported partition. */
  tables: number;
  /** Partitions left as they were (unchanged since the last export). */
  unchanged: number;
  /** Partitions removed because their rows are gone. */
  deleted: number;
  /** Tables that took the full path (fingerprints over every row) instead of their marks. */
  fullTables?: number;
}

export interface ExportOptions {
  tables?: string[];
  /** Fingerprint every partition of every table (the fallback path) instead of reading the marks. */
  full?: boolean;
  /** DuckDB's buffer limit while the export runs (default EXPORT_MEMORY_LIMIT). */
  memoryLimit?: string;
  /** Tests: runs after the files are in place and before the transaction that records them. */
  afterFiles?: () => void | Promise<void>;
  /** Tests: runs when a table's next generation is built (in `build`) and before it is claimed and published. */
  beforeClaim?: (table: string, build: string) => void | Promise<void>;
}

const NULL_SEGMENT = '__HIVE_DEFAULT_PARTITION__';

/** Changed partitions of one table an export handles within the sync-time buffer limit (an idle night of the small world marks up to ~40). */
const MARKS_WITHIN_SYNC_LIMIT = 64;

/** DuckDB's buffer limit while an export runs (the worker's sync-time limit is warehouse.memoryLimit): the warehouse's maintenance limit. */
export const EXPORT_MEMORY_LIMIT = MAINTENANCE_MEMORY_LIMIT;

function segment(value: unknown): string {
  if (value === null || value === undefined) return NULL_SEGMENT;
  const encoded = encodeURIComponent(String(value)).replace(/\./g, '%2E');
  return encoded === '' ? NULL_SEGMENT : encoded;
}

/**
 * A partition's name in _glacier_exports: the table, its partition columns and its day
 * (`evm_blocks/chain_id=43114/date=2026-11-21`). It names the unit of change and of fingerprints, not a
 * file: in lake layout 2 a past month's days share one file (see fileOf).
 */
function partitionPath(def: TableDef, values: readonly (string | null)[]): string {
  return [def.name, ...partitionColumns(def).map((k, i) => `${k.name}=${segment(values[i])}`)].join('/');
}

/** The values of a recorded partition path (partitionPath's inverse; undefined if it does not fit the table). */
function valuesOfPath(def: TableDef, path: string): (string | null)[] | undefined {
  const segs = path.split('/').slice(1);
  const keys = partitionColumns(def);
  if (segs.length !== keys.length) return undefined;
  const values: (string | null)[] = [];
  for (const [i, s] of segs.entries()) {
    if (!s.startsWith(`${keys[i].name}=`)) return undefined;
    const v = s.slice(keys[i].name.length + 1);
    values.push(v === NULL_SEGMENT ? null : decodeURIComponent(v));
  }
  return values;
}

function inside(root: string, path: string): string {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel.startsWith('..') || rel.includes(`${sep}..${sep}`) || resolve(root, rel) !== full) throw new Error(`export path escapes the output directory: ${path}`);
  return full;
}

/** What a table's export decided from the fingerprints (before any file is written). */
interface TableChanges {
  written: string[];
  unchanged: number;
  deleted: string[];
  current: Map<string, { fingerprint: string; rows: number }>;
  /** Every partition the table has after this export, with its values. */
  partitions: Map<string, (string | null)[]>;
}

/**
 * One file of a generation: the rows of a group (the table's partition columns) for one day, one
 * month, or all of them (undated tables).
 */
interface LakeFile {
  values: (string | null)[];
  span: 'day' | 'month';
}

/** The temporary table of the marked path's staged rows (TableWriter.stage). */
const STAGE_TABLE = '_glacier_export_stage';

/** A lake file's identity within its table (its group, day or month, and span). */
const fileKey = (file: LakeFile) => JSON.stringify([file.values, file.span]);

/**
 * The files that hold the marked partitions, as the lake's layout places them among the recorded
 * partitions and the marked ones (a day of the group's current month: its day file; an older day:
 * its month's file).
 */
function markedFiles(w: TableWriter, known: Map<string, string>, marked: (string | null)[][]): LakeFile[] {
  const partitions = new Map<string, (string | null)[]>();
  for (const path of known.keys()) {
    const values = valuesOfPath(w.def, path);
    if (values) partitions.set(path, values);
  }
  for (const values of marked) partitions.set(partitionPath(w.def, values), values);
  const { files, fileOf } = w.layout(partitions);
  return [...new Set(marked.map((values) => fileOf(values)))].map((rel) => files.get(rel)!);
}

/** What one table's export reads and where its files go (shared by the full and the marked path). */
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
    private readonly suffix: string,
  ) {
    // Deferred columns (lake layout 3) are NULL in the files for the rows they concern, and the
    // fingerprint hashes the same projection: a later spend or reward leaves the partition as it was.
    const deferred = new Set(def.export.deferred?.columns ?? []);
    const value = (c: TableDef['columns'][number]) => (deferred.has(c.name) ? `CASE WHEN ${def.export.deferred!.where} THEN NULL ELSE ${ident(c.name)} END` : ident(c.name));
    // Omitted columns (the run that last listed a row) are not in the files, nor in the fingerprint: a
    // page that lists an old row again leaves its file as it was.
    const omitted = new Set(def.export.omit ?? []);
    const lakeColumns = def.columns.filter((c) => !omitted.has(c.name));
    const fileColumns = lakeColumns.filter((c) => !def.export.partitionBy.includes(c.name));
    this.select = fileColumns.map((c) => `${c.type === 'HUGEINT' ? `CAST(${value(c)} AS DECIMAL(38,0))` : value(c)} AS ${ident(c.name)}`).join(', ');
    const rowHash = `hash(${lakeColumns.map(value).join(', ')})`;
    this.fingerprint = `count(*) AS n, bit_xor(${rowHash})::VARCHAR || ':' || sum(${rowHash}::HUGEINT)::VARCHAR AS h`;
  }

  /** The relation the table's rows come from: the marked files' staged rows while they are staged (see stage), else the table's own (tableRows). */
  from(alias?: string): string {
    if (this.staged) return alias ? `${this.staged.name} AS ${alias}` : this.staged.name;
    return this.tableRows(alias);
  }

  /**
   * The warehouse table, or a lake-only table's SELECT (TableDef.lakeSource). Given the files a
   * statement reads (`within`), only the rows of the date range that bounds them, by plain ranges
   * DuckDB applies inside its scan: the date column's, and for a `dateWhen` table dateWhenScan's
   * union of one range per date column (its day filter, an OR over two columns, runs after the
   * scan, which then reads every column of every row).
   */
  private tableRows(alias?: string, within?: readonly LakeFile[]): string {
    // A lake-only table's rows are its SELECT's; the date range applies on top of it, and DuckDB
    // pushes it down into the scans of the base table (pn_utxo_spends: the scan of
    // pn_transaction_utxos reads the night's spends, not every spend of the history).
    const source = this.def.lakeSource ? `(${sqlFile(this.def.lakeSource).trim().replace(/;$/, '')})` : ident(this.def.name);
    const name = alias ?? ident(this.def.name);
    const ranges = (within ?? []).map((f) => spanRange(this.def, f.values, f.span));
    if (ranges.length > 0 && ranges.every((r) => r !== undefined)) {
      const bounds: [number, number] = [Math.min(...ranges.map((r) => r![0])), Math.max(...ranges.map((r) => r![1]))];
      const from = ident(this.def.export.dateFrom!);
      const rel = this.def.export.dateWhen ? dateWhenScan(this.def, source, bounds) : `(SELECT * FROM ${source} AS _rows WHERE ${from} >= ${bounds[0]} AND ${from} < ${bounds[1]})`;
      return `${rel} AS ${name}`;
    }
    return `${source} AS ${name}`;
  }

  /**
   * The generation's files for the table's partitions (relative path -> file, and partition -> path).
   * Dated tables: hive keys are the partition columns, then month=YYYY-MM. A group's "current" month is
   * the month of its newest day in the data (not the wall clock: a late chain or a simulated calendar
   * compacts by its own days); each day of it has its own file (day-YYYY-MM-DD.parquet), and every
   * older month is one file (month.parquet). Undated tables: one data.parquet per group.
   */
  layout(partitions: Map<string, (string | null)[]>): { files: Map<string, LakeFile>; fileOf: (values: readonly (string | null)[]) => string } {
    const dated = this.def.export.dateFrom !== undefined;
    const groupOf = (values: readonly (string | null)[]) => (dated ? values.slice(0, -1) : [...values]);
    const newest = new Map<string, string>();
    if (dated) {
      for (const values of partitions.values()) {
        const day = values.at(-1);
        const g = JSON.stringify(groupOf(values));
        if (day !== null && day !== undefined && day > (newest.get(g) ?? '')) newest.set(g, day);
      }
    }
    const files = new Map<string, LakeFile>();
    const place = (values: readonly (string | null)[]): [string, LakeFile] => {
      const group = groupOf(values);
      const dirs = this.def.export.partitionBy.map((k, i) => `${k}=${segment(group[i])}`);
      if (!dated) return [[...dirs, `data${this.suffix}.parquet`].join('/'), { values: group, span: 'day' }];
      const day = values.at(-1) ?? null;
      if (day === null) return [[...dirs, `month=${NULL_SEGMENT}`, `month${this.suffix}.parquet`].join('/'), { values: [...group, null], span: 'day' }];
      const month = day.slice(0, 7);
      const current = (newest.get(JSON.stringify(group)) ?? day).slice(0, 7);
      if (month < current) return [[...dirs, `month=${month}`, `month${this.suffix}.parquet`].join('/'), { values: [...group, month], span: 'month' }];
      return [[...dirs, `month=${month}`, `day-${day}${this.suffix}.parquet`].join('/'), { values: [...values], span: 'day' }];
    };
    for (const values of partitions.values()) {
      const [rel, file] = place(values);
      files.set(rel, file);
    }
    return { files, fileOf: (values) => place(values)[0] };
  }

  /** The temporary table holding the rows of the marked files (see stage), and which files they are, while it exists. */
  private staged: { name: string; files: Set<string> } | undefined;

  /** Writes one file of the table's generation to `target` (the build's path of it: TableGenerations.writeTarget). */
  async write(target: string, file: LakeFile): Promise<void> {
    const { where, params } = partitionFilter(this.def, file.values, file.span);
    // A file of the stage is cut from it; another (missing from the lake, or newly compacted) from the table.
    const staged = this.staged?.files.has(fileKey(file)) ? this.staged.name : undefined;
    await profiled('export:copy', () => this.conn.run(`COPY (SELECT ${this.select} FROM ${staged ?? this.tableRows()} WHERE ${where}) TO ${sqlString(target)} (FORMAT parquet, COMPRESSION zstd)`, params));
  }

  /**
   * Marked path: copies the rows of the files that hold the marked partitions out of the table in one
   * scan (a bounding date range DuckDB applies inside it), into a temporary table the fingerprints and
   * the COPYs of `write` then read until `unstage`. The table is read once a
   * night, not once to fingerprint and again per file: a long history's table is one or two row
   * groups, which no zone map skips, and under the sync-time buffer limit each read loads them again.
   * A lake-only table's SELECT (a join over its base table) is evaluated once, not per statement.
   */
  async stage(files: readonly LakeFile[]): Promise<void> {
    const params: DuckDBValue[] = [];
    const filters = files.map((f) => {
      const filter = partitionFilter(this.def, f.values, f.span, params.length);
      params.push(...filter.params);
      return `(${filter.where})`;
    });
    // One name for every table's stage: the next table's replaces it (a DROP each was a statement per
    // table), and the export's connection takes the last one with it when it closes.
    const name = ident(STAGE_TABLE);
    await profiled('export:stage', () => this.conn.run(`CREATE OR REPLACE TEMP TABLE ${name} AS SELECT * FROM ${this.tableRows(undefined, files)} WHERE ${filters.join(' OR ')}`, params));
    this.staged = { name, files: new Set(files.map(fileKey)) };
  }

  /** Reads from the table again (the stage's rows stay until the next table's stage replaces them). */
  unstage(): void {
    this.staged = undefined;
  }
}

/** Full path: fingerprints every partition of the table (one scan of it) and finds the changed, new and vanished ones. */
async function fingerprintAll(conn: DuckDBConnection, w: TableWriter, known: Map<string, string>): Promise<TableChanges> {
  const keys = partitionColumns(w.def);
  const groupCols = keys.map((k, i) => `${k.expr} AS p${i}`).join(', ');
  const fingerprints = (
    await conn.runAndReadAll(
      `SELECT ${groupCols ? `${groupCols}, ` : ''}${w.fingerprint} FROM ${w.from()}${keys.length ? ` GROUP BY ${keys.map((_, i) => `p${i}`).join(', ')}` : ''}`,
    )
  ).getRowObjectsJS();

  const written: string[] = [];
  const current = new Map<string, { fingerprint: string; rows: number }>();
  const partitions = new Map<string, (string | null)[]>();
  let unchanged = 0;
  for (const fp of fingerprints) {
    const values = keys.map((_, i) => (fp[`p${i}`] === null || fp[`p${i}`] === undefined ? null : String(fp[`p${i}`])));
    const partPath = partitionPath(w.def, values);
    const fingerprint = `${String(fp.n)}:${String(fp.h)}`;
    current.set(partPath, { fingerprint, rows: Number(fp.n) });
    partitions.set(partPath, values);
    if (known.get(partPath) === fingerprint) unchanged++;
    else written.push(partPath);
  }
  const deleted = [...known.keys()].filter((p) => !current.has(p));
  return { written, unchanged, deleted, current, partitions };
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
      const filter = partitionFilter(w.def, values, 'day', params.length);
      params.push(...filter.params);
      return `SELECT ${i} AS i, ${w.fingerprint} FROM ${w.from()} WHERE ${filter.where}`;
    });
    for (const fp of (await conn.runAndReadAll(branches.join('\nUNION ALL\n'), params)).getRowObjectsJS()) out.set(parts[Number(fp.i)][0], { n: fp.n, h: fp.h });
    return out;
  }
  const keys = partitionColumns(w.def, 't');
  const { where, params } = partitionsFilter(w.def, parts.map(([, values]) => values), 't');
  const sql = `SELECT ${keys.map((k, i) => `${k.expr} AS p${i}`).join(', ')}, ${w.fingerprint} FROM ${w.from('t')} WHERE ${where} GROUP BY ALL`;
  for (const fp of (await conn.runAndReadAll(sql, params)).getRowObjectsJS()) {
    out.set(partitionPath(w.def, keys.map((_, i) => (fp[`p${i}`] === null || fp[`p${i}`] === undefined ? null : String(fp[`p${i}`])))), { n: fp.n, h: fp.h });
  }
  return out;
}

/**
 * Marked path: only the partitions commits marked. They are fingerprinted over their own rows (the
 * same fingerprint as the full path, so either path can follow the other; one statement for the
 * table's marks: a sync marks every partition its batches touched, most of them unchanged, and one
 * statement each was most of an idle night's export); the other partitions are the ones
 * _glacier_exports records.
 */
async function fingerprintMarked(conn: DuckDBConnection, w: TableWriter, known: Map<string, string>, marked: (string | null)[][]): Promise<TableChanges | undefined> {
  const partitions = new Map<string, (string | null)[]>();
  for (const path of known.keys()) {
    const values = valuesOfPath(w.def, path);
    if (!values) return undefined;
    partitions.set(path, values);
  }
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
        partitions.delete(partPath);
        deleted.push(partPath);
      }
      continue;
    }
    const fingerprint = `${rows}:${String(fp!.h)}`;
    current.set(partPath, { fingerprint, rows });
    partitions.set(partPath, values);
    if (known.get(partPath) === fingerprint) unchanged++;
    else written.push(partPath);
  }
  return { written, unchanged: unchanged + [...known.keys()].filter((p) => !parts.has(p)).length, deleted, current, partitions };
}

/**
 * Builds and publishes the table's next generation when its files change: unchanged files are
 * hard-linked from the latest generation, files holding a changed or deleted partition (or missing
 * there, or newly compacted) are written from the table. Other shards' files are linked as they are.
 * Returns the number of files written (0 when the table's files stay as they are).
 */
async function publishTable(w: TableWriter, gens: TableGenerations, changes: TableChanges, ownFile: (name: string) => boolean, beforeClaim?: ExportOptions['beforeClaim']): Promise<number> {
  const { files, fileOf } = w.layout(changes.partitions);
  const dirtyFromChanges = new Set<string>();
  for (const p of changes.written) dirtyFromChanges.add(fileOf(changes.partitions.get(p)!));
  for (const p of changes.deleted) {
    const values = valuesOfPath(w.def, p);
    if (values) dirtyFromChanges.add(fileOf(values));
  }
  for (let attempt = 0; ; attempt++) {
    const base = gens.latest();
    const baseFiles = base === undefined ? [] : await profiled('export:list', async () => gens.filesOf(base));
    const baseSet = new Set(baseFiles);
    const dirty = [...files.keys()].filter((rel) => dirtyFromChanges.has(rel) || !baseSet.has(rel));
    const dropped = baseFiles.filter((f) => ownFile(f.split('/').at(-1)!) && !files.has(f));
    if (dirty.length === 0 && dropped.length === 0 && (base !== undefined || files.size === 0) && gens.entry().kind !== 'dir') {
      if (base !== undefined) await profiled('export:publish', async () => gens.publish());
      return 0;
    }
    const build = gens.startBuild(base);
    try {
      const dirtySet = new Set(dirty);
      await profiled('export:link', async () => {
        for (const f of baseFiles) if (ownFile(f.split('/').at(-1)!) ? files.has(f) && !dirtySet.has(f) : true) gens.linkInto(build, base!, f);
      });
      for (const rel of dirty) {
        inside(build, rel); // a hostile partition value never leads out of the lake
        await w.write(gens.writeTarget(build, rel), files.get(rel)!);
      }
    } catch (error) {
      // Another export pruned the base while this one linked from it: build again on the latest.
      if (errno(error) === 'ENOENT' && attempt < 5) continue;
      throw error;
    }
    await beforeClaim?.(w.def.name, build);
    if (await profiled('export:claim', async () => gens.claim(build, (base ?? 0) + 1))) {
      await profiled('export:publish', async () => gens.publish());
      return dirty.length;
    }
  }
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Where this warehouse's files go in the lake. One warehouse writes data, day-<date> and month files; each shard
 * writes the same names with -<shard> before .parquet, beside the others' in the same hive partition
 * directories of one generation (so one glob reads the union and no two writers ever write one file).
 */
export interface LakeLayout {
  shard?: string;
}

/** Whether a file name in a generation is this writer's (its own kinds of file, with its own shard suffix). */
function ownFileOf(layout: LakeLayout): (name: string) => boolean {
  const suffix = layout.shard ? `-${layout.shard}` : '';
  return (name) => {
    const m = /^(data|month|day-\d{4}-\d{2}-\d{2})(.*)\.parquet$/.exec(name);
    return m !== null && m[2] === suffix;
  };
}

interface Mark {
  table: string;
  key: string;
  seq: bigint;
}

/** The tables of the lake, in export order: each catalog table then the lake-only tables derived from it, and the finished snapshot walks. */
export function lakeTables(catalog: readonly TableDef[]): TableDef[] {
  return [...catalog.flatMap((d) => [d, ...(d.lakeDerived ?? [])]), snapshotWalksExport];
}

/**
 * Exports the catalog's tables (all, or `tables`) and the finished snapshot walks to hive-partitioned
 * Parquet under outDir. The caller passes the catalog (allTables() of activities/streams/catalog.ts):
 * the warehouse layer sits below the streams and does not import them.
 */
export async function exportParquet(warehouse: Warehouse, catalog: readonly TableDef[], outDir: string, options: ExportOptions = {}, layout: LakeLayout = {}): Promise<ExportResult> {
  try {
    return await profiled('export:total', () => exportTables(warehouse, catalog, outDir, options, layout));
  } finally {
    profileCommit(0);
  }
}

async function exportTables(warehouse: Warehouse, catalog: readonly TableDef[], outDir: string, options: ExportOptions, layout: LakeLayout): Promise<ExportResult> {
  const root = resolve(outDir);
  // A base table named in `tables` brings its lake-only tables: their marks come from its merges.
  const named = options.tables && new Set([...options.tables, ...catalog.filter((b) => options.tables?.includes(b.name)).flatMap((b) => (b.lakeDerived ?? []).map((d) => d.name))]);
  const defs = lakeTables(catalog).filter((t) => !named || named.has(t.name));
  const unknown = (options.tables ?? []).filter((t) => !defs.some((d) => d.name === t));
  if (unknown.length) throw new Error(`unknown table(s) for export: ${unknown.join(', ')}`);
  ensureLakeLayout(root);
  // Layout 1 wrote through these; an export of it that died may have left one.
  rmSync(join(root, layout.shard ? `.tmp-${layout.shard}` : '.tmp'), { recursive: true, force: true });
  const owner = layout.shard ?? '_';
  const suffix = layout.shard ? `-${layout.shard}` : '';
  const ownFile = ownFileOf(layout);
  const conn = await warehouse.connect();
  const result: ExportResult = { files: 0, tables: 0, unchanged: 0, deleted: 0, fullTables: 0 };
  // A table on the full path is read by one COPY per partition: with the sync-time buffer limit every
  // read goes back to disk, so the first such table raises the limit, restored afterwards, and so does
  // a table with more than MARKS_WITHIN_SYNC_LIMIT changed partitions (its grouped fingerprint and
  // month files). A night's few marks keep the limit (lowering it again evicts what the export
  // loaded: that was a fifth of an idle night's export).
  let release: (() => Promise<void>) | undefined;
  try {
    // One read transaction: every partition is cut from the same committed snapshot, and the marks
    // read are exactly the changes that snapshot holds.
    await conn.run('BEGIN TRANSACTION');
    const [state, layouts, marks] = await profiled('export:read', async () => {
      const state = (await conn.runAndReadAll(sqlFile('ops/listExports.sql'))).getRowObjectsJS();
      const layouts = new Map((await conn.runAndReadAll(sqlFile('ops/listLakeTables.sql'))).getRowObjectsJS().map((r) => [String(r.table_name), String(r.layout)]));
      const marks: Mark[] = (await conn.runAndReadAll(sqlFile('ops/listLakeMarks.sql'))).getRowObjectsJS().map((r) => ({ table: String(r.table_name), key: String(r.partition_key), seq: BigInt(r.seq as bigint) }));
      return [state, layouts, marks] as const;
    });
    const updates: { table: string; path: string; fingerprint: string; rows: number }[] = [];
    const removals: { table: string; path: string }[] = [];
    const cleared: Mark[] = [];
    const fullBases = new Set<string>();
    const baseOf = new Map(catalog.flatMap((b) => (b.lakeDerived ?? []).map((d) => [d.name, b.name] as const)));
    for (const def of defs) {
      const known = new Map(state.filter((s) => s.table_name === def.name).map((s) => [String(s.partition_path), String(s.fingerprint)]));
      const own = marks.filter((m) => m.table === def.name);
      const values = own.map((m) => valuesOfKey(def, m.key));
      const w = new TableWriter(conn, def, suffix);
      const gens = new TableGenerations(root, def.name, owner);
      gens.cleanBuilds();
      // A lake-only table is derived again whenever its base table is (a new layout, a lake converted).
      const full =
        options.full ||
        layouts.get(def.name) !== layoutSignature(def) ||
        values.some((v) => v === undefined) ||
        (gens.latest() === undefined && (known.size > 0 || gens.entry().kind === 'dir')) ||
        (def.lakeSource !== undefined && fullBases.has(baseOf.get(def.name) ?? ''));
      if (full) fullBases.add(def.name);
      if ((full || own.length > MARKS_WITHIN_SYNC_LIMIT) && !release) release = await warehouse.raiseMemory(options.memoryLimit ?? EXPORT_MEMORY_LIMIT);
      // Marked path: the rows of the files that hold the marks are staged, then fingerprinted and
      // written from there (the full path reads the table: a copy would hold all of it).
      if (!full && own.length > 0) await w.stage(markedFiles(w, known, values as (string | null)[][]));
      let r: TableChanges;
      let marked: TableChanges | undefined;
      try {
        marked = full ? undefined : await profiled('export:fingerprint', () => fingerprintMarked(conn, w, known, values as (string | null)[][]));
        // A recorded partition the layout does not read: the full path, from the table.
        if (!marked) w.unstage();
        r = marked ?? (await profiled('export:fingerprintAll', () => fingerprintAll(conn, w, known)));
        result.files += await publishTable(w, gens, r, ownFile, options.beforeClaim);
      } finally {
        w.unstage();
      }
      if (!marked) result.fullTables!++;
      result.unchanged += r.unchanged;
      result.deleted += r.deleted.length;
      if (r.partitions.size > 0) result.tables++;
      for (const path of r.written) updates.push({ table: def.name, path, ...r.current.get(path)! });
      for (const path of r.deleted) removals.push({ table: def.name, path });
      cleared.push(...own);
    }
    await conn.run('COMMIT');
    await options.afterFiles?.();
    // Export bookkeeping goes through the writer so it never interleaves with a batch commit. A mark
    // is cleared only if no commit marked its partition again since the snapshot read (same seq).
    await profiled('export:bookkeeping', () => warehouse.withWriter(async (wr) => {
      await wr.run('BEGIN TRANSACTION');
      try {
        // One statement per kind, whatever the number of partitions: inside a transaction DuckDB
        // gives every INSERT OR REPLACE its own buffer block until COMMIT (about 135 KB each), so one
        // statement per partition made a 1,700-partition first export run out of memory here.
        if (updates.length) await wr.run(sqlFile('ops/upsertExports.sql'), [listValue(updates.map((u) => u.table)), listValue(updates.map((u) => u.path)), listValue(updates.map((u) => u.fingerprint)), listValue(updates.map((u) => BigInt(u.rows)))]);
        if (removals.length) await wr.run(sqlFile('ops/deleteExports.sql'), [listValue(removals.map((d) => d.table)), listValue(removals.map((d) => d.path))]);
        if (cleared.length) await wr.run(sqlFile('ops/clearLakeMarks.sql'), [listValue(cleared.map((m) => m.table)), listValue(cleared.map((m) => m.key)), listValue(cleared.map((m) => m.seq))]);
        // Every table this export covered, in one statement: its layout, and when it was last exported
        // (sql/ops/runExported.sql reads that to tell whether a pipeline run exported).
        await wr.run(sqlFile('ops/upsertLakeTables.sql'), [listValue(defs.map((d) => d.name)), listValue(defs.map((d) => layoutSignature(d)))]);
        await wr.run('COMMIT');
      } catch (error) {
        await wr.run('ROLLBACK');
        throw error;
      }
    }));
  } finally {
    if (release) await release().catch(() => undefined);
    conn.closeSync();
  }
  return result;
}
