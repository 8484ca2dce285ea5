import { createHash } from 'node:crypto';
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { storedRowsSql } from './storedRows.ts';
import type { CellValue, TableDef } from './tableDef.ts';

/**
 * The hive partition of a row, in the three places that need it: the export's paths and filters,
 * the commit that marks what it changed (from the batch's column vectors: no read of the table), and
 * the follow-up SQL of a merge that updates rows stored earlier (`{lake_key:...}` in sql/ops files,
 * expanded here). A partition key is the JSON array of the partition values in path
 * order: the table's partition columns, then the UTC day of its date column ('YYYY-MM-DD').
 */

export interface PartitionColumn {
  name: string;
  expr: string;
}

const DAY_SECONDS = 86_400;

/** A column of `def`'s row, qualified by `alias` when given. */
const qualified = (column: string, alias?: string) => (alias ? `${alias}.${ident(column)}` : ident(column));

/**
 * The epoch seconds that date a row of `def` (SQL, columns qualified by `alias` when given): its
 * dateFrom column, or for the rows `dateWhen` selects its own column when not NULL.
 */
function dateSql(def: TableDef, alias?: string): string {
  const col = (c: string) => qualified(c, alias);
  const from = col(def.export.dateFrom!);
  const when = def.export.dateWhen;
  return when ? `(CASE WHEN ${col(when.column)} = ${sqlString(when.equals)} THEN coalesce(${col(when.dateFrom)}, ${from}) ELSE ${from} END)` : from;
}

/** The hive keys of a table in path order, each with its SQL over the table's columns. */
export function partitionColumns(def: TableDef, alias?: string): PartitionColumn[] {
  const col = (c: string) => qualified(c, alias);
  const keys = def.export.partitionBy.map((c) => ({ name: c, expr: `CAST(${col(c)} AS VARCHAR)` }));
  if (def.export.dateFrom) keys.push({ name: 'date', expr: `strftime(to_timestamp(${dateSql(def, alias)}) AT TIME ZONE 'UTC', '%Y-%m-%d')` });
  return keys;
}

/**
 * A range over a row's date (see dateSql). With `dateWhen`, the dateFrom column never exceeds the date
 * (a UTXO is created before it is spent) and the date is one of the two columns, so plain comparisons
 * of the columns come first: `dateFrom < hi` (DuckDB's zone maps skip the row groups of later days)
 * and one of them at least `lo` (the rows of older days are dropped before any key is computed).
 */
function dateRangeSql(def: TableDef, lo: string, hi: string, alias?: string): string {
  const date = dateSql(def, alias);
  const col = (c: string) => qualified(c, alias);
  const when = def.export.dateWhen;
  if (!when) return `${date} >= ${lo} AND ${date} < ${hi}`;
  const from = col(def.export.dateFrom!);
  return `${from} < ${hi} AND (${from} >= ${lo} OR ${col(when.dateFrom)} >= ${lo}) AND ${date} >= ${lo} AND ${date} < ${hi}`;
}

/** SQL for the partition key of the row `alias` of `def` (same text as lakeKeyOf builds in TypeScript). */
export function lakeKeySql(def: TableDef, alias?: string): string {
  return `to_json([${partitionColumns(def, alias)
    .map((k) => k.expr)
    .join(', ')}])::VARCHAR`;
}

function dayOf(epochSeconds: CellValue): string | null {
  if (epochSeconds === null || epochSeconds === undefined) return null;
  return new Date(Number(epochSeconds) * 1000).toISOString().slice(0, 10);
}

/** The distinct partition keys of a batch, from its column vectors. */
export function lakeKeysOfBatch(def: TableDef, columns: readonly CellValue[][], rows: number): Set<string> {
  const parts = def.export.partitionBy.map((c) => columns[def.columns.findIndex((d) => d.name === c)]);
  const column = (name: string) => columns[def.columns.findIndex((d) => d.name === name)];
  const dates = def.export.dateFrom ? column(def.export.dateFrom) : undefined;
  const when = def.export.dateWhen;
  const whenColumn = when ? column(when.column) : undefined;
  const whenDates = when ? column(when.dateFrom) : undefined;
  const keys = new Set<string>();
  for (let i = 0; i < rows; i++) {
    const values: (string | null)[] = parts.map((p) => (p[i] === null || p[i] === undefined ? null : String(p[i])));
    const own = whenColumn && whenColumn[i] === when!.equals ? whenDates![i] : null;
    if (dates) values.push(dayOf(own ?? dates[i]));
    keys.add(JSON.stringify(values));
  }
  return keys;
}

/** The partition key of a table whose only hive key is the day (the snapshot-walk records). */
export function dayOnlyLakeKey(epochSeconds: number): string {
  return JSON.stringify([dayOf(epochSeconds)]);
}

/** The values of a partition key (an unreadable key yields undefined: the export then takes the full path). */
export function valuesOfKey(def: TableDef, key: string): (string | null)[] | undefined {
  try {
    const values = JSON.parse(key) as unknown;
    const n = partitionColumns(def).length;
    if (!Array.isArray(values) || values.length !== n || values.some((v) => v !== null && typeof v !== 'string')) return undefined;
    return values as (string | null)[];
  } catch {
    return undefined;
  }
}

function dayRange(day: string): [number, number] {
  const lo = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) / 1000 : NaN;
  if (!Number.isFinite(lo)) throw new Error(`not a partition day: ${JSON.stringify(day)}`);
  return [lo, lo + DAY_SECONDS];
}

function monthRange(month: string): [number, number] {
  const lo = /^\d{4}-\d{2}$/.test(month) ? Date.parse(`${month}-01T00:00:00Z`) / 1000 : NaN;
  if (!Number.isFinite(lo)) throw new Error(`not a partition month: ${JSON.stringify(month)}`);
  const next = new Date(lo * 1000);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return [lo, next.getTime() / 1000];
}

/** The epoch-second range of a partition's day (or, span 'month', of a file's month); undefined for an undated table or the NULL day. */
export function spanRange(def: TableDef, values: readonly (string | null)[], span: 'day' | 'month' = 'day'): [number, number] | undefined {
  const day = def.export.dateFrom ? values[def.export.partitionBy.length] : null;
  if (day === null || day === undefined) return undefined;
  return span === 'day' ? dayRange(day) : monthRange(day);
}

/**
 * The rows of `relation` (a `dateWhen` table) that can be dated within [lo, hi), as a relation whose
 * every filter is a plain range DuckDB applies inside its scan: those whose dateFrom lies in it, and
 * those of an earlier dateFrom whose other date column lies in it (the dateFrom never exceeds the
 * date; the two parts are disjoint). The date filter of partitionFilter still applies on top. With the
 * filter alone, its OR of two columns runs after the scan, which then reads every column of every row
 * of the table (pn_transaction_utxos at 100 days: 20 ms a statement). Undefined for other tables.
 */
export function dateWhenScan(def: TableDef, relation: string, [lo, hi]: [number, number]): string | undefined {
  const when = def.export.dateWhen;
  if (!when) return undefined;
  const from = ident(def.export.dateFrom!);
  const other = ident(when.dateFrom);
  return `(SELECT * FROM ${relation} WHERE ${from} >= ${lo} AND ${from} < ${hi} UNION ALL SELECT * FROM ${relation} WHERE ${other} >= ${lo} AND ${other} < ${hi} AND ${from} < ${lo})`;
}

/**
 * The rows of one partition (span 'month': the date value is 'YYYY-MM' and the range its month, the
 * rows of one compacted lake file): equality on the partition columns, and for the day a range over the
 * epoch-second column, so DuckDB skips the row groups whose min/max lie outside it and a partition's
 * read costs its rows, not the table's.
 */
export function partitionFilter(def: TableDef, values: readonly (string | null)[], span: 'day' | 'month' = 'day', paramsBefore = 0): { where: string; params: DuckDBValue[] } {
  const clauses: string[] = [];
  const params: DuckDBValue[] = [];
  // Parameters are numbered after `paramsBefore` others (several filters in one statement).
  const $ = () => `$${paramsBefore + params.length}`;
  def.export.partitionBy.forEach((c, i) => {
    const v = values[i];
    if (v === null) clauses.push(`${ident(c)} IS NULL`);
    else {
      params.push(v);
      clauses.push(`${ident(c)} = ${$()}`);
    }
  });
  if (def.export.dateFrom) {
    const range = spanRange(def, values, span);
    if (range === undefined) clauses.push(`${dateSql(def)} IS NULL`);
    else {
      const [lo, hi] = range;
      params.push(BigInt(lo));
      const from = $();
      params.push(BigInt(hi));
      clauses.push(dateRangeSql(def, from, $()));
    }
  }
  return { where: clauses.length ? clauses.join(' AND ') : 'true', params };
}

/**
 * The rows of several partitions of `def` (columns qualified by `alias` when given), for one scan:
 * the row's partition key is one of theirs and, when every one names a day, its day lies within the
 * days that bound them, a plain range DuckDB checks against its zone maps (so the export's grouped
 * fingerprint and the nightly key check read the row groups of those days, not the whole table).
 */
export function partitionsFilter(def: TableDef, partitions: readonly (readonly (string | null)[])[], alias?: string): { where: string; params: DuckDBValue[] } {
  if (partitions.length === 0) return { where: 'false', params: [] };
  const params: DuckDBValue[] = [listValue(partitions.map((values) => JSON.stringify(values)))];
  const clauses = [`${lakeKeySql(def, alias)} IN (SELECT unnest($1::VARCHAR[]))`];
  const dateFrom = def.export.dateFrom;
  const days = partitions.map((values) => values[def.export.partitionBy.length]);
  if (dateFrom && days.every((d) => d !== null && d !== undefined)) {
    const ranges = days.map((d) => dayRange(d!));
    params.push(BigInt(Math.min(...ranges.map(([lo]) => lo))), BigInt(Math.max(...ranges.map(([, hi]) => hi))));
    clauses.unshift(dateRangeSql(def, '$2', '$3', alias));
  }
  return { where: clauses.join(' AND '), params };
}

/**
 * What the lake's files of a table were written with: its columns and types, its partition layout and
 * the file format version. When it changes (a column added, a type changed) every file is stale and
 * the next export takes the full path.
 */
export function layoutSignature(def: TableDef): string {
  const text = JSON.stringify({ v: 1, columns: def.columns.map((c) => [c.name, c.type]), export: def.export });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * A merge deletes a key's stored row and inserts the batch's: when the stored row's day differs (its
 * date column is neither in the key nor the prune column, so it may change for a key), its old
 * partition lost a row. This statement marks the old partitions; tables whose day cannot change for a
 * key need none. A table with a prune column is matched on it too, as its merge matches (so the join
 * skips the row groups the batch cannot touch, instead of reading the table), unless the merge
 * replaces by key alone (`byKeyOnly`: a staged row without it, or a table with a key constraint).
 */
export function movedRowsMarkSql(def: TableDef, stage: string, byKeyOnly = false): string | undefined {
  const dateFrom = def.export.dateFrom;
  if (!dateFrom || def.merge !== 'upsert' || def.primaryKey.includes(dateFrom) || def.pruneBy === dateFrom) return undefined;
  const keys = def.pruneBy && !byKeyOnly ? [...def.primaryKey, def.pruneBy] : def.primaryKey;
  const match = keys.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ');
  const day = (a: string) => `(${dateSql(def, a)} // ${DAY_SECONDS})`;
  return `${MARK_INSERT} SELECT '${def.name}', k, nextval('_glacier_lake_seq') FROM (SELECT DISTINCT ${lakeKeySql(def, 't')} AS k FROM ${storedRowsSql(ident(def.name), ident(stage), match)} AS t JOIN ${ident(stage)} AS s ON ${match} WHERE ${day('t')} IS DISTINCT FROM ${day('s')})`;
}

export const MARK_INSERT = 'INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq)';

/** The statement that marks the partitions of `def` holding the rows of `relation` (a stage, or the staged rows that differ from the stored ones). */
export function rowsMarkSql(def: TableDef, relation: string): string {
  return `${MARK_INSERT} SELECT '${def.name}', k, nextval('_glacier_lake_seq') FROM (SELECT DISTINCT ${lakeKeySql(def, 's')} AS k FROM ${relation} AS s)`;
}

/**
 * Expands `{lake_key:<table>:<alias>:<partition columns>:<date column>}` (columns comma-separated, the date
 * column possibly empty) in a follow-up SQL file to the partition key of the row `alias`. The file
 * names the layout of the table it updates; test/warehouse/lakeMarks.test.ts checks it against the
 * catalog.
 */
export function expandLakeKeys(sql: string): string {
  return sql.replace(/\{lake_key:[a-z_0-9]+:([a-z_0-9]+):([a-z_0-9,]*):([a-z_0-9]*)\}/g, (_, alias: string, cols: string, dateFrom: string) =>
    lakeKeySql({ export: { partitionBy: cols ? cols.split(',') : [], dateFrom: dateFrom || undefined } } as TableDef, alias),
  );
}

/** The `{lake_key}` placeholders of a SQL text: table, alias and layout (tests compare them with the catalog). */
export function lakeKeyPlaceholders(sql: string): { table: string; alias: string; partitionBy: string[]; dateFrom?: string }[] {
  return [...sql.matchAll(/\{lake_key:([a-z_0-9]+):([a-z_0-9]+):([a-z_0-9,]*):([a-z_0-9]*)\}/g)].map((m) => ({ table: m[1], alias: m[2], partitionBy: m[3] ? m[3].split(',') : [], dateFrom: m[4] || undefined }));
}
