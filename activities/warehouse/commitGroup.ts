import type { ColumnBatch } from './columnBatch.ts';
import type { TableDef } from './tableDef.ts';

/**
 * Group commit: batches that reach the warehouse while a commit is running wait, and the next commit
 * takes all of them in one transaction. Each batch keeps its own atomicity (its rows and its checkpoint
 * are in that one transaction); what is shared is DuckDB's fixed cost per transaction and per table
 * statement, which dominates small batches (a 50-row upsert into a wide table costs about as much as
 * a 500-row one).
 */

export interface GroupMember {
  tables: ColumnBatch[];
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
    const memberRows = member.tables.reduce((n, t) => n + t.rows, 0);
    const clash = member.tables.some((t) => t.table.merge === 'scd2' && t.rows > 0 && scd2.has(t.table.name));
    if (group.length > 0 && (clash || rows + memberRows > GROUP_MAX_ROWS)) break;
    for (const t of member.tables) if (t.table.merge === 'scd2' && t.rows > 0) scd2.add(t.table.name);
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
