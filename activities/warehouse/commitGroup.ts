import type { Table } from 'apache-arrow';
import { arrowColumnValues } from './arrowRows.ts';
import type { CellValue, TableDef } from './tableDef.ts';

/**
 * Group commit: batches that reach the warehouse while a commit is running wait, and the next commit
 * takes all of them in one transaction. Each batch keeps its own atomicity (its rows and its checkpoint
 * are in that one transaction); what is shared is DuckDB's fixed cost per transaction and per table
 * statement, which dominates small batches (a 50-row upsert into a wide table costs about as much as
 * a 500-row one).
 */

export interface GroupMember {
  tables: { table: TableDef; rows: Table }[];
}

/** At most this many rows go into one group; the rest wait for the next commit. */
export const GROUP_MAX_ROWS = 50_000;

/**
 * The members that go into the next commit, in arrival order: as many as fit GROUP_MAX_ROWS (at least
 * one). A member that writes an SCD2 table already written by an earlier member of the group waits:
 * the version-closing UPDATE must see one new version per key per statement.
 */
export function takeGroup<M extends GroupMember>(waiting: M[]): M[] {
  const group: M[] = [];
  const scd2 = new Set<string>();
  let rows = 0;
  for (let i = 0; i < waiting.length; i++) {
    const member = waiting[i];
    const memberRows = member.tables.reduce((n, t) => n + t.rows.numRows, 0);
    const clash = member.tables.some((t) => t.table.merge === 'scd2' && t.rows.numRows > 0 && scd2.has(t.table.name));
    if (group.length > 0 && (clash || rows + memberRows > GROUP_MAX_ROWS)) break;
    for (const t of member.tables) if (t.table.merge === 'scd2' && t.rows.numRows > 0) scd2.add(t.table.name);
    rows += memberRows;
    group.push(member);
  }
  waiting.splice(0, group.length);
  return group;
}

/** Tables written by a group, each once, in the order members list them. */
export function groupTables(group: readonly GroupMember[]): TableDef[] {
  const byName = new Map<string, TableDef>();
  for (const member of group) for (const { table } of member.tables) if (!byName.has(table.name)) byName.set(table.name, table);
  return [...byName.values()];
}

/**
 * One table's rows across the members of a group as columns of JS values, in arrival order; a
 * primary key sent by two members keeps the later row (as two commits in a row would).
 */
export function groupColumns(def: TableDef, parts: readonly Table[]): { columns: CellValue[][]; rows: number } {
  const nonEmpty = parts.filter((p) => p.numRows > 0);
  const columns = def.columns.map((c) => {
    const values = nonEmpty.map((p) => arrowColumnValues(p, c.name, c.type));
    return values.length === 1 ? values[0] : ([] as CellValue[]).concat(...values);
  });
  const rows = columns[0]?.length ?? 0;
  if (nonEmpty.length < 2) return { columns, rows };
  const keyColumns = def.primaryKey.map((k) => columns[def.columns.findIndex((c) => c.name === k)]);
  const lastIndex = new Map<string, number>();
  for (let i = 0; i < rows; i++) {
    let key = String(keyColumns[0][i]);
    for (let k = 1; k < keyColumns.length; k++) key += '\u0000' + String(keyColumns[k][i]);
    lastIndex.set(key, i);
  }
  if (lastIndex.size === rows) return { columns, rows };
  const keep = [...lastIndex.values()].sort((a, b) => a - b);
  return { columns: columns.map((col) => keep.map((i) => col[i])), rows: keep.length };
}
