import { ident } from './identifier.ts';
import { expandLakeKeys, MARK_INSERT, movedRowsMarkSql, rowsMarkSql } from './lakeKeys.ts';
import { sqlFile } from './sqlFile.ts';
import { storedRowsSql } from './storedRows.ts';
import type { ColumnDef, TableDef } from './tableDef.ts';

export interface MergeOptions {
  /**
   * The table has a PRIMARY KEY constraint (a warehouse created before keys moved to the merge):
   * DuckDB's own upsert applies there.
   */
  constrained: boolean;
  /** Some staged row has NULL in the table's pruneBy column (it cannot be matched on that column). */
  nullPrune?: boolean;
  /**
   * false: no statement that marks partitions for the lake (Warehouse.startChangeMarks), and no prune
   * of the staged rows the table holds as they are (a new warehouse's first backfill stores rows it does not hold).
   */
  marks?: boolean;
}

/** A merge in three parts: `prepare` runs before the table's beforeMerge SQL, `merge` after it, and `cleanup` after its afterMerge SQL. */
export interface MergePlan {
  prepare: string[];
  merge: string[];
  cleanup: string[];
}

/**
 * Every statement, in order, that a commit runs to move a table's staged batch into the table (not a
 * versioned one: versions.ts): the merge, the lake marks of the rows that moved, the table's follow-up
 * SQL files (`{stage}`: the batch), emptying the stage.
 * One list, so the commit runs it in one call and test/warehouse/commitPlans.test.ts checks each
 * statement's plan on a long history.
 */
export function tableMergeStatements(def: TableDef, stage: string, options: MergeOptions): string[] {
  const plan = mergeStatements(def, stage, options);
  const moved = movedRowsMarkSql(def, stage, options.constrained || options.nullPrune);
  const followUp = (files: string[] | undefined) => (files ?? []).map((file) => expandLakeKeys(sqlFile(file)).replaceAll('{stage}', ident(stage)));
  const statements = [...plan.prepare, ...(moved ? [moved] : []), ...followUp(def.beforeMerge), ...plan.merge, ...followUp(def.afterMerge), `DELETE FROM ${ident(stage)}`, ...plan.cleanup];
  return (options.marks === false ? statements.flatMap(splitStatements).filter((s) => !s.startsWith(MARK_INSERT)) : statements).map((statement) => statement.trim().replace(/;$/, ''));
}

/** A text of several statements (an sql/ops file) as its statements, each without its leading comment lines. */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.replace(/^(\s*--[^\n]*\n)+/, '').trim())
    .filter(Boolean);
}

/**
 * The statements that move a staging table into its real table. Identifiers come only from the
 * table catalog (checked by `ident`); values never appear in SQL text.
 *
 * Tables carry their key without an index: a batch's keys are deleted, then the batch is inserted, in
 * the caller's transaction. Rows of the stage are unique by key (columnBatch.ts concatUnique dedupes them).
 */
export function mergeStatements(def: TableDef, stage: string, options: MergeOptions): MergePlan {
  const t = ident(def.name);
  const s = ident(stage);
  const cols = def.columns.map((c) => ident(c.name)).join(', ');
  const match = (keys: readonly string[]) => keys.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ');
  if (def.merge === 'scd2') {
    if (!def.scd2) throw new Error(`${def.name}: scd2 merge without scd2 spec`);
    if (def.export.dateFrom || def.export.partitionBy.some((c) => !def.scd2!.key.includes(c))) throw new Error(`${def.name}: an scd2 table's partitions are columns of its key (a version closes where it opened)`);
    const keyMatch = match(def.scd2.key);
    const changed = def.scd2.tracked.map((c) => `t.${ident(c)} IS DISTINCT FROM s.${ident(c)}`).join(' OR ');
    const merge = [
      // Close the open version of every key whose tracked columns changed in this snapshot.
      `UPDATE ${t} AS t SET valid_to = s.valid_from FROM ${s} AS s WHERE ${keyMatch} AND t.valid_to IS NULL AND t.valid_from < s.valid_from AND (${changed})`,
      // Open a version for every key without one (new keys and the ones just closed); a retried
      // snapshot finds its version already there, open or closed. An anti join, not NOT EXISTS: the
      // same rows, but DuckDB runs the correlated subquery with its OR far slower (this statement's CPU
      // over the two pn.validators commits of a bench:write-path run, 7 pages each: 10.2 ms to 2.2 ms).
      `INSERT INTO ${t} (${cols}) SELECT ${def.columns.map((c) => `s.${ident(c.name)}`).join(', ')} FROM ${s} AS s ANTI JOIN ${t} AS t ON ${keyMatch} AND (t.valid_to IS NULL OR t.valid_from = s.valid_from)`,
    ];
    // The batch's partitions: the versions it closes and opens are there (the key holds the partition columns).
    return { prepare: [], merge: [...merge, rowsMarkSql(def, s)], cleanup: [] };
  }
  // A versioned table's merge first counts what changes and writes only that (versions.ts mergeVersions).
  if (def.merge === 'versions') throw new Error(`${def.name}: a versioned table is merged by mergeVersions, not mergeStatements`);
  // Rows the table already holds with the same values leave the stage first, so a night that re-reads
  // what it stored writes nothing there (no delete, no insert, no WAL, nothing for the checkpoint). A
  // touch column (last_seen_at) is set in place on rows whose other values are unchanged. Not with a
  // follow-up SQL file: those read the whole stage (a spend marks the UTXO it consumes). Not in a
  // warehouse that marks nothing yet (options.marks false): its first backfill stores rows the table
  // does not hold, and the prune would read the stored table's keys at every commit for none.
  const prunes = options.marks !== false;
  const keyMatch = def.pruneBy && !options.nullPrune ? match([...def.primaryKey, def.pruneBy]) : match(def.primaryKey);
  const valuesOf = (cols: readonly ColumnDef[]) => cols.filter((c) => !def.primaryKey.includes(c.name)).map((c) => `t.${ident(c.name)} IS NOT DISTINCT FROM s.${ident(c.name)}`);
  const sameRow = [keyMatch, ...valuesOf(def.columns)].join(' AND ');
  const touch = new Set(def.touch ?? []);
  const held = def.columns.filter((c) => !touch.has(c.name));
  // The lake partitions the merge marks are those of the staged rows that differ from the stored ones
  // (new or changed), not of the batch, so a page that lists old rows again as stored marks nothing.
  // Where the identical rows leave the stage (below), the ones left; else (a follow-up file, a touch
  // column set in place, a key constraint) the staged rows whose key is not among those of the
  // identical ones, found first (keys only: a copy of the stage doubled a large page's memory, and an
  // anti join of the stage with the table built its hash table on the table; both ran out of the
  // sync-time buffer limit).
  const dropsIdentical = prunes && !def.afterMerge?.length && !options.constrained;
  const identical = prunes && (!dropsIdentical || touch.size) ? ident(`${stage}_identical`) : undefined;
  const keyJoin = def.primaryKey.map((k) => `i.${ident(k)} = s.${ident(k)}`).join(' AND ');
  // The stored rows of the batch's keys, found by the key columns and fetched by row id (storedRows.ts):
  // a join on every column read every column of every stored row.
  const stored = storedRowsSql(t, s, keyMatch);
  // The staged rows whose key is not among `keys`.
  const notIn = (keys: string) => `(SELECT s.* FROM ${s} AS s ANTI JOIN ${keys} AS i ON ${keyJoin})`;
  const keys = def.primaryKey.map((k) => `s.${ident(k)}`).join(', ');
  const prepare = identical ? [`CREATE OR REPLACE TEMP TABLE ${identical} AS SELECT ${keys} FROM ${s} AS s JOIN ${stored} AS t ON ${sameRow}`, rowsMarkSql(def, notIn(identical))] : [];
  const cleanup = identical ? [`DROP TABLE ${identical}`] : [];
  const markLeft = identical ? [] : [rowsMarkSql(def, s)];
  if (options.constrained) {
    const allKey = def.columns.every((c) => def.primaryKey.includes(c.name));
    return { prepare, merge: [`INSERT OR ${allKey ? 'IGNORE' : 'REPLACE'} INTO ${t} (${cols}) SELECT ${cols} FROM ${s}`], cleanup };
  }
  const unchanged = !dropsIdentical
    ? []
    : [
        ...(touch.size
          ? [`UPDATE ${t} AS t SET ${[...touch].map((c) => `${ident(c)} = s.${ident(c)}`).join(', ')} FROM ${s} AS s WHERE ${[keyMatch, ...valuesOf(held), `(${[...touch].map((c) => `t.${ident(c)} IS DISTINCT FROM s.${ident(c)}`).join(' OR ')})`].join(' AND ')}`]
          : []),
        `DELETE FROM ${s} AS s USING ${stored} AS t WHERE ${sameRow}`,
      ];
  const deletes = def.pruneBy
    ? [
        `DELETE FROM ${t} AS t USING ${s} AS s WHERE ${match([...def.primaryKey, def.pruneBy])}`,
        ...(options.nullPrune ? [`DELETE FROM ${t} AS t USING ${s} AS s WHERE s.${ident(def.pruneBy)} IS NULL AND ${match(def.primaryKey)}`] : []),
      ]
    : [`DELETE FROM ${t} AS t USING ${s} AS s WHERE ${match(def.primaryKey)}`];
  return { prepare, merge: [...unchanged, ...markLeft, ...deletes, `INSERT INTO ${t} (${cols}) SELECT ${cols} FROM ${s}`], cleanup };
}
