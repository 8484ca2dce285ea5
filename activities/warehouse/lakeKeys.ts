import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { ident, sqlString } from './identifier.ts';
import { storedRowsSql } from './storedRows.ts';
import type { CellValue, TableDef } from './tableDef.ts';

/**
 * The partition of a row, the unit in which the warehouse records what changed for the lake: a JSON
 * array of its table's partition columns, then the UTC day of its date ('YYYY-MM-DD'). Built by the
 * commit (from the batch's column vectors), by follow-up SQL (`{lake_key:...}` in sql/ops files), and
 * for the export's and the nightly verify's filters.
 */

type PartitionColumn = { name: string; expr: string };

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

/** The partition key's parts in order, each with its SQL over the table's columns. */
export function partitionColumns(def: TableDef, alias?: string): PartitionColumn[] {
  const col = (c: string) => qualified(c, alias);
  const keys = def.export.partitionBy.map((c) => ({ name: c, expr: `CAST(${col(c)} AS VARCHAR)` }));
  if (def.export.dateFrom) keys.push({ name: 'date', expr: `strftime(to_timestamp(${dateSql(def, alias)}) AT TIME ZONE 'UTC', '%Y-%m-%d')` });
  return keys;
}

/**
 * A range over a row's date (dateSql). With `dateWhen` (a UTXO created before it is spent), plain
 * comparisons of the two columns come first, which DuckDB's zone maps skip row groups on.
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
  return `to_json([${partitionColumns(def, alias).map((k) => k.expr).join(', ')}])::VARCHAR`;
}

function dayOf(epochSeconds: CellValue): string | null {
  if (epochSeconds === null || epochSeconds === undefined) return null;
  return new Date(Number(epochSeconds) * 1000).toISOString().slice(0, 10);
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

/**
 * The rows of several partitions of `def` (columns qualified by `alias` when given), for one scan: the
 * row's key is one of theirs, tested after its date lies between their first and last day (zone maps
 * skip the rest) and within one of their days (a range test costs about 5 ns a row, the key 550: bench/lakeShapes.ts; one
 * old day marked, a spend of an old UTXO, makes the bounds alone span the history).
 */
export function partitionsFilter(def: TableDef, partitions: readonly (readonly (string | null)[])[], alias?: string): { where: string; params: DuckDBValue[] } {
  if (partitions.length === 0) return { where: 'false', params: [] };
  const params: DuckDBValue[] = [listValue(partitions.map((values) => JSON.stringify(values)))];
  const clauses = [`${lakeKeySql(def, alias)} IN (SELECT unnest($1::VARCHAR[]))`];
  const dateFrom = def.export.dateFrom;
  const days = partitions.map((values) => values[def.export.partitionBy.length]);
  if (dateFrom && days.every((d) => d !== null && d !== undefined)) {
    const ranges = dayRanges(days as string[]);
    params.push(BigInt(ranges[0][0]), BigInt(ranges.at(-1)![1]));
    const date = dateSql(def, alias);
    if (ranges.length > 1) clauses.unshift(`(${ranges.map(([lo, hi]) => `(${date} >= ${lo} AND ${date} < ${hi})`).join(' OR ')})`);
    clauses.unshift(dateRangeSql(def, '$2', '$3', alias));
  }
  return { where: clauses.join(' AND '), params };
}

/** The days as ranges of epoch seconds, sorted, consecutive days joined. */
function dayRanges(days: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const day of [...new Set(days)].sort()) {
    const lo = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) / 1000 : NaN;
    if (!Number.isFinite(lo)) throw new Error(`not a partition day: ${JSON.stringify(day)}`);
    const [last, hi] = [ranges.at(-1), lo + DAY_SECONDS];
    if (last && last[1] === lo) last[1] = hi;
    else ranges.push([lo, hi]);
  }
  return ranges;
}

/**
 * Marks the old partitions of rows a merge replaces with a row of another day (only tables whose day
 * can change for a key). Matched on the prune column too, as the merge matches, so the join skips row
 * groups, unless the merge replaces by key alone (`byKeyOnly`).
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
 * Expands `{lake_key:<table>:<alias>:<partition columns>:<date column>}` in a follow-up SQL file to the
 * partition key of the row `alias` (test/warehouse/lakeMarks.test.ts checks the layouts it names).
 */
export function expandLakeKeys(sql: string): string {
  return sql.replace(/\{lake_key:[a-z_0-9]+:([a-z_0-9]+):([a-z_0-9,]*):([a-z_0-9]*)\}/g, (_, alias: string, cols: string, dateFrom: string) =>
    lakeKeySql({ export: { partitionBy: cols ? cols.split(',') : [], dateFrom: dateFrom || undefined } } as TableDef, alias),
  );
}
