import type { CellValue, Row, TableDef } from './tableDef.ts';

/**
 * One table's rows as column vectors, in the table's column order: what the stream driver fills from
 * a page and what the DuckDB appender takes. Nothing converts them in between.
 */
export interface ColumnBatch {
  table: TableDef;
  /** One vector per column of `table`, each `rows` long. */
  columns: CellValue[][];
  rows: number;
}

/** Plain rows (missing keys are nulls) as a column batch: for tests and tools that write rows by hand. */
export function rowsToColumns(table: TableDef, rows: readonly Row[]): ColumnBatch {
  return { table, columns: table.columns.map((c) => rows.map((r) => r[c.name] ?? null)), rows: rows.length };
}

/**
 * Batches of one table in arrival order as one batch whose primary keys are unique: a key sent twice
 * (a page repeating an item, two pages or two batches of a group commit listing it) keeps its last
 * row, as committing them one after another would. The one dedupe of the write path: DuckDB's
 * upsert refuses to touch a key twice in one statement.
 */
export function concatUnique(table: TableDef, parts: readonly ColumnBatch[]): ColumnBatch {
  const nonEmpty = parts.filter((p) => p.rows > 0);
  const columns =
    nonEmpty.length === 1 ? nonEmpty[0].columns : table.columns.map((_, c) => ([] as CellValue[]).concat(...nonEmpty.map((p) => p.columns[c])));
  const rows = nonEmpty.reduce((n, p) => n + p.rows, 0);
  if (rows < 2) return { table, columns, rows };
  const keyColumns = table.primaryKey.map((k) => columns[table.columns.findIndex((c) => c.name === k)]);
  const lastIndex = new Map<string, number>();
  for (let i = 0; i < rows; i++) {
    let key = String(keyColumns[0][i]);
    for (let k = 1; k < keyColumns.length; k++) key += '\u0000' + String(keyColumns[k][i]);
    lastIndex.set(key, i);
  }
  if (lastIndex.size === rows) return { table, columns, rows };
  const keep = [...lastIndex.values()].sort((a, b) => a - b);
  return { table, columns: columns.map((vector) => keep.map((i) => vector[i])), rows: keep.length };
}
