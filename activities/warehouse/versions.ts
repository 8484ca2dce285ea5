import { listValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { ident } from './identifier.ts';
import { lakeKeySql, MARK_INSERT } from './lakeKeys.ts';
import { VALID_TO, VERSION_FROM, versionKey, versionTracked, type CellValue, type TableDef } from './tableDef.ts';
import type { ColumnBatch } from './columnBatch.ts';

/**
 * Versioned snapshot tables (TableDef.merge 'versions'): a snapshot walk stores only what changed.
 *
 * - A page's rows are merged against the open versions (valid_to IS NULL) of their keys: a key whose
 *   open version holds the same values writes nothing; a changed one closes that version at the row's
 *   snapshot and opens a new one; a key without an open version opens one. A row of the same
 *   snapshot (a retried or resumed walk) is rewritten in place, so a retry writes what one attempt would.
 * - A walk of several commits records the keys its pages listed in _glacier_walk_keys (stream,
 *   partition, snapshot), in the transaction of its rows, so its seen keys survive batches, crashes
 *   and resumes; a walk that one commit holds whole needs none (its keys are that commit's stage).
 * - The commit that finishes the walk (the one that records it in _glacier_snapshot_walks) closes, at
 *   the walk's snapshot, the open versions the walk answers for (VersionsSpec.scope) whose key neither
 *   its stage nor its recorded keys hold, and deletes the partition's recorded keys.
 * Every row these statements update is marked for the lake (_glacier_changed_partitions) by its own
 * partition: closing a version rewrites the lake file of the day it was opened.
 */

const SEPARATOR = '\u001f';

/** The text of a row's version key as SQL builds it (keyTextsOf builds the same in TypeScript). */
export function keyTextSql(def: TableDef, alias: string): string {
  return `concat_ws(chr(31), ${versionKey(def)
    .map((k) => `coalesce(CAST(${alias}.${ident(k)} AS VARCHAR), '')`)
    .join(', ')})`;
}

/** The version keys of a batch's rows with their snapshot, from its column vectors (no read of the table). */
export function keyTextsOf(batch: ColumnBatch): { keys: string[]; snapshots: bigint[] } {
  const { table, columns, rows } = batch;
  const at = (name: string) => columns[table.columns.findIndex((c) => c.name === name)];
  const keyColumns = versionKey(table).map(at);
  const snapshot = at(VERSION_FROM);
  const keys: string[] = [];
  const snapshots: bigint[] = [];
  for (let i = 0; i < rows; i++) {
    keys.push(keyColumns.map((c) => cellText(c[i])).join(SEPARATOR));
    snapshots.push(BigInt(snapshot[i] as bigint | number));
  }
  return { keys, snapshots };
}

const cellText = (v: CellValue | undefined): string => (v === null || v === undefined ? '' : String(v));

export interface VersionSql {
  /** One row: counts of staged rows that open a version (`added`), close one (`closed`), rewrite one of their own snapshot (`rewritten`). */
  plan: string;
  /** Marks the lake partitions those rows touch (before they are written). */
  mark: string;
  close: string;
  rewrite: string;
  insert: string;
}

/** The SQL of a versioned table's merge (see the module comment). Identifiers come from the catalog. */
export function versionSql(def: TableDef, stage: string): VersionSql {
  const t = ident(def.name);
  const s = ident(stage);
  const from = ident(VERSION_FROM);
  const to = ident(VALID_TO);
  const key = versionKey(def)
    .map((k) => `t.${ident(k)} = s.${ident(k)}`)
    .join(' AND ');
  const tracked = versionTracked(def);
  const changed = tracked.map((c) => `t.${ident(c)} IS DISTINCT FROM ${stagedAs(def, c)}`).join(' OR ');
  const cols = def.columns.map((c) => ident(c.name));
  const first = ident(versionKey(def)[0]);
  return {
    plan: `SELECT count(*) FILTER (WHERE t.${first} IS NULL) AS added, count(*) FILTER (WHERE t.${first} IS NOT NULL AND t.${from} < s.${from}) AS closed, count(*) FILTER (WHERE t.${first} IS NOT NULL AND t.${from} = s.${from}) AS rewritten FROM ${s} AS s LEFT JOIN ${t} AS t ON ${key} AND t.${to} IS NULL WHERE t.${first} IS NULL OR ((${changed}) AND t.${from} <= s.${from})`,
    // The lake partitions this batch writes: of each staged row without an open version of the same
    // values, and of the open version it closes or rewrites (the day that version was opened).
    mark: `${MARK_INSERT} SELECT '${def.name}', k, nextval('_glacier_lake_seq') FROM (SELECT DISTINCT k FROM (SELECT unnest([${lakeKeySql(def, 's')}, CASE WHEN t.${first} IS NOT NULL THEN ${lakeKeySql(def, 't')} END]) AS k FROM ${s} AS s LEFT JOIN ${t} AS t ON ${key} AND t.${to} IS NULL WHERE t.${first} IS NULL OR ((${changed}) AND t.${from} <= s.${from})) WHERE k IS NOT NULL)`,
    // A changed value closes the open version of an earlier snapshot...
    close: `UPDATE ${t} AS t SET ${to} = s.${from} FROM ${s} AS s WHERE ${key} AND t.${to} IS NULL AND t.${from} < s.${from} AND (${changed})`,
    // ... and one this snapshot opened already (a retried page) takes the new values in place.
    rewrite: `UPDATE ${t} AS t SET ${tracked.map((c) => `${ident(c)} = ${stagedAs(def, c)}`).join(', ')} FROM ${s} AS s WHERE ${key} AND t.${to} IS NULL AND t.${from} = s.${from} AND (${changed})`,
    // Keys without an open version (new ones, and the ones just closed) open one.
    insert: `INSERT INTO ${t} (${cols.join(', ')}) SELECT ${cols.map((c) => `s.${c}`).join(', ')} FROM ${s} AS s ANTI JOIN ${t} AS t ON ${key} AND t.${to} IS NULL`,
  };
}

/**
 * Merges a staged batch into a versioned table on the caller's transaction, and closes what the walks
 * this commit finishes (`finishing`, those that write the table) answer for and did not list (the
 * stage must still hold the commit's rows). One query counts what the batch changes, and for one
 * finishing walk (the usual commit) what it closes; only the writes they need run (with the marks of
 * the partitions they touch), so a batch of unchanged values under a walk that lost nothing runs
 * none. Returns the lake partition keys of the closed versions, to mark.
 */
export async function mergeVersions(connection: DuckDBConnection, def: TableDef, stage: string, finishing: readonly FinishingWalk[] = [], marks = true): Promise<string[]> {
  const closing = finishing.filter((w) => !def.versions!.answers || def.versions!.answers(w.params));
  const sql = versionSql(def, stage);
  // What every finishing walk leaves unlisted, counted in the same query: a commit of many walks that lost nothing runs no close.
  const query = closing.length ? `SELECT *, (SELECT count(*) FROM ${ident(def.name)} AS t, ${WALKS} WHERE ${unseenWhere(def, stage)}) AS gone FROM (${sql.plan})` : sql.plan;
  const [plan] = (await connection.runAndReadAll(query, closing.length ? walksParams(closing) : [])).getRowObjectsJS();
  const closed = Number(plan.closed);
  const rewritten = Number(plan.rewritten);
  const added = Number(plan.added);
  const statements = [...(marks && closed + rewritten + added > 0 ? [sql.mark] : []), ...(closed > 0 ? [sql.close] : []), ...(rewritten > 0 ? [sql.rewrite] : []), ...(closed + added > 0 ? [sql.insert] : [])];
  if (statements.length) await connection.run(statements.join(';\n'));
  const keys: string[] = [];
  // One walk at a time: walks whose scopes overlap (pending-reward partitions) may close the same version; the first one does.
  for (const walk of closing.length && Number(plan.gone) > 0 ? closing : []) {
    const gone = await connection.runAndReadAll(`${closeUnseenSql(def, stage)} RETURNING ${lakeKeySql(def, 't')} AS k`, walksParams([walk]));
    keys.push(...gone.getRowObjectsJS().map((r) => String(r.k)));
  }
  return keys;
}

/** A staged column as the table stores it (the stage holds JSON as VARCHAR: compared as JSON, as the insert stores it). */
function stagedAs(def: TableDef, column: string): string {
  const type = def.columns.find((c) => c.name === column)!.type;
  return type === 'JSON' ? `CAST(s.${ident(column)} AS JSON)` : `s.${ident(column)}`;
}

/** The keys the members of a commit listed for their partitions' walks, gathered for one statement (sql/ops/recordWalkKeys.sql). */
export class SeenKeys {
  private readonly columns: [string[], string[], bigint[], string[], string[]] = [[], [], [], [], []];

  add(stream: string, partitionId: string, batch: ColumnBatch): void {
    const { keys, snapshots } = keyTextsOf(batch);
    const [streams, partitions, at, tables, all] = this.columns;
    for (let i = 0; i < keys.length; i++) {
      streams.push(stream);
      partitions.push(partitionId);
      at.push(snapshots[i]);
      tables.push(batch.table.name);
      all.push(keys[i]);
    }
  }

  get size(): number {
    return this.columns[0].length;
  }

  /** The parameters of sql/ops/recordWalkKeys.sql, one list per column (call only when size > 0). */
  params(): DuckDBValue[] {
    return this.columns.map((c) => listValue(c as DuckDBValue[]));
  }
}

/**
 * The finishing walks as a relation `w`: `p` its params (JSON), `snap` its snapshot, `stream`, `pid` its
 * partition id. Parameters: $1 params (JSON text), $2 snapshots, $3 streams, $4 partition ids, one list each.
 */
const WALKS = '(SELECT CAST(p AS JSON) AS p, snap, stream, pid FROM (SELECT unnest($1::VARCHAR[]) AS p, unnest($2::BIGINT[]) AS snap, unnest($3::VARCHAR[]) AS stream, unnest($4::VARCHAR[]) AS pid)) AS w';

/**
 * The open versions a finishing walk `w` answers for whose key it did not list: not in this commit's
 * stage, nor among the keys its earlier commits recorded.
 */
function unseenWhere(def: TableDef, stage: string): string {
  const listed = versionKey(def)
    .map((k) => `s.${ident(k)} = t.${ident(k)}`)
    .join(' AND ');
  return [
    `t.${ident(VALID_TO)} IS NULL`,
    `t.${ident(VERSION_FROM)} < w.snap`,
    `(${def.versions!.scope})`,
    `NOT EXISTS (SELECT 1 FROM ${ident(stage)} AS s WHERE ${listed})`,
    `NOT EXISTS (SELECT 1 FROM _glacier_walk_keys AS k WHERE k.stream = w.stream AND k.partition_id = w.pid AND k.snapshot_at = w.snap AND k.table_name = '${def.name}' AND k.key = ${keyTextSql(def, 't')})`,
  ].join(' AND ');
}

/** Closes those versions at their walk's snapshot (same parameters; one walk per statement). */
export function closeUnseenSql(def: TableDef, stage: string): string {
  return `UPDATE ${ident(def.name)} AS t SET ${ident(VALID_TO)} = w.snap FROM ${WALKS} WHERE ${unseenWhere(def, stage)}`;
}

const walksParams = (walks: readonly FinishingWalk[]): DuckDBValue[] => [
  listValue(walks.map((w) => JSON.stringify(w.params))),
  listValue(walks.map((w) => BigInt(w.snapshotAt))),
  listValue(walks.map((w) => w.stream)),
  listValue(walks.map((w) => w.partitionId)),
];

/** A walk the commit finishes, as its close needs it. */
export interface FinishingWalk {
  stream: string;
  partitionId: string;
  snapshotAt: number;
  params: Record<string, unknown>;
}
