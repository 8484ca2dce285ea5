import type { ColumnBatch } from './columnBatch.ts';
import { VERSION_FROM, type TableDef } from './tableDef.ts';

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

/**
 * At most this many cells (rows x columns, over every table) go into one commit: the stage tables hold
 * a commit's rows uncompressed in DuckDB's buffer pool, so a commit must fit well inside the
 * warehouse's memory limit (128 MB by default), beside the table blocks and hash tables its merge
 * pins. Cells, not rows: a P-chain transaction row is many times wider than a block row. Measured
 * (duckdb_memory(), long-history bench world, 6 partitions, 50-page batches): with a 50,000-row cap
 * the stages peaked at 260 MB and a commit failed to pin a block under the 64 MB limit; at 250,000
 * cells (roughly 10-20 MB of values) a commit still writes thousands of rows.
 */
export const COMMIT_MAX_CELLS = 250_000;

/** Cells of a member: what it adds to a commit's stages. */
export function cellsOf(member: GroupMember): number {
  return member.tables.reduce((n, t) => n + t.rows * t.table.columns.length, 0);
}

/**
 * The members that go into the next commit, in arrival order: as many as fit COMMIT_MAX_CELLS (at
 * least one; the sync core flushes a batch at that size, so one member stays about that big). A member that writes an SCD2 table already written by an earlier member of the group waits:
 * the version-closing UPDATE must see one new version per key per statement. So does one whose rows
 * of a versioned table carry another snapshot than the group's (two runs' walks of one key).
 */
export function takeGroup<M extends GroupMember>(waiting: M[]): M[] {
  const group: M[] = [];
  const scd2 = new Set<string>();
  /** Versioned tables written so far, with the snapshot their rows carry. */
  const versions = new Map<string, string>();
  let cells = 0;
  for (let i = 0; i < waiting.length; i++) {
    const member = waiting[i];
    const memberCells = cellsOf(member);
    const clash = member.tables.some(
      (t) => t.rows > 0 && ((t.table.merge === 'scd2' && scd2.has(t.table.name)) || (t.table.merge === 'versions' && (versions.get(t.table.name) ?? snapshotOf(t)) !== snapshotOf(t))),
    );
    if (group.length > 0 && (clash || cells + memberCells > COMMIT_MAX_CELLS)) break;
    for (const t of member.tables) if (t.table.merge === 'scd2' && t.rows > 0) scd2.add(t.table.name);
    for (const t of member.tables) if (t.table.merge === 'versions' && t.rows > 0) versions.set(t.table.name, snapshotOf(t));
    cells += memberCells;
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

/** The snapshot of a versioned table's batch (its first row's snapshot_at: a batch is one walk's). */
function snapshotOf(batch: ColumnBatch): string {
  return String(batch.columns[batch.table.columns.findIndex((c) => c.name === VERSION_FROM)][0]);
}
