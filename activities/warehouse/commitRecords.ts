import { BOOLEAN, DOUBLE, LIST, listValue, VARCHAR, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { CheckpointWrite, RunRecord, SnapshotWalkRecord } from './commitInput.ts';

/**
 * The bookkeeping rows of a commit's batches (checkpoint, run record, finished snapshot walk, field
 * records), bound as one list per column so that each kind is ONE statement per commit instead of
 * one per batch (sql/ops/upsertCheckpoints.sql, recordSyncRuns.sql, recordSnapshotWalks.sql,
 * recordStreamFields.sql). An idle night's
 * sweep commits 84 batches in about 28 groups; each single-row statement is a round trip through
 * DuckDB's task scheduler costing milliseconds of CPU whatever its size.
 *
 * The lists are typed explicitly: a list whose first value is null would otherwise be bound as a
 * list of NULL type and lose its other values. Numbers are bound as DOUBLE and cast by the SQL, as
 * a single number parameter was.
 */
export interface BoundStatement {
  file: string;
  params: DuckDBValue[];
  types: DuckDBType[];
}

export interface RecordsMember {
  checkpoint: CheckpointWrite;
  run: RunRecord | undefined;
  walk: SnapshotWalkRecord | undefined;
}

const S = LIST(VARCHAR);
const N = LIST(DOUBLE);
const B = LIST(BOOLEAN);

/**
 * Splits members into runs in which no partition appears twice (one statement may not write the
 * same key twice); a partition commits one batch at a time, so a group is normally one run.
 */
export function distinctPartitionRuns<M extends RecordsMember>(members: readonly M[]): M[][] {
  const runs: M[][] = [];
  let seen = new Set<string>();
  for (const m of members) {
    if (runs.length === 0 || seen.has(m.checkpoint.partitionId)) {
      runs.push([]);
      seen = new Set();
    }
    seen.add(m.checkpoint.partitionId);
    runs[runs.length - 1].push(m);
  }
  return runs;
}

/** A statement column: how a row gives its value, and the list type it is bound as. */
type Column<R> = readonly [(row: R) => DuckDBValue, DuckDBType];

/** One list parameter per column over `rows`, each bound with its column's type. */
function bound<R>(file: string, rows: readonly R[], columns: readonly Column<R>[]): BoundStatement {
  return { file, params: columns.map(([value]) => listValue(rows.map(value))), types: columns.map(([, type]) => type) };
}

/** The checkpoints of members whose partition ids are distinct, stamped with the commit's time. */
export function checkpointsStatement(members: readonly RecordsMember[], updatedAt: string): BoundStatement {
  const lists = bound('ops/upsertCheckpoints.sql', members.map((m) => m.checkpoint), [
    [(c) => c.partitionId, S],
    [(c) => c.stream, S],
    [(c) => c.pageToken, S],
    [(c) => JSON.stringify(c.cursor), S],
    [(c) => c.rows, N],
    [(c) => c.pages, N],
    [(c) => c.complete, B],
  ]);
  return { ...lists, params: [...lists.params, updatedAt], types: [...lists.types, VARCHAR] };
}

/** Run records (deltas) of (run, partition) pairs that are distinct. */
export function runRecordsStatement(rows: readonly { run: RunRecord; partitionId: string; stream: string }[]): BoundStatement {
  return bound('ops/recordSyncRuns.sql', rows, [
    [(r) => r.run.runId, S],
    [(r) => r.partitionId, S],
    [(r) => r.stream, S],
    [(r) => r.run.mode, S],
    [(r) => r.run.snapshotAt, N],
    [(r) => r.run.pages, N],
    [(r) => r.run.rows, N],
    [(r) => r.run.done, B],
    [(r) => r.run.cost?.requests ?? 0, N],
    [(r) => r.run.cost?.cu ?? 0, N],
    [(r) => r.run.cost?.rejected429 ?? 0, N],
    [(r) => r.run.cost?.items ?? 0, N],
    [(r) => r.run.cost?.weight ?? null, N],
    [(r) => r.run.cost?.pageLimit ?? null, N],
    [(r) => r.run.cost?.cutPages ?? 0, N],
    [(r) => r.run.cost?.cutItems ?? 0, N],
  ]);
}

/**
 * The field records (_glacier_stream_fields: a partition's top-level fields and whether every item
 * sent them) of members whose partition ids are distinct, one row per (partition, field); undefined
 * when none changed. A partition still counting its baseline writes some every night.
 */
export function fieldsStatement(members: readonly RecordsMember[]): BoundStatement | undefined {
  const rows = members.flatMap(({ checkpoint, run }) => [...(run?.fields ?? [])].map(([path, f]) => ({ scope: checkpoint.partitionId, runId: run!.runId, path, f })));
  if (rows.length === 0) return undefined;
  return bound('ops/recordStreamFields.sql', rows, [
    [(r) => r.scope, S],
    [(r) => r.runId, S],
    [(r) => r.path, S],
    [(r) => r.f.items, N],
    [(r) => r.f.always, B],
  ]);
}

/** Finished snapshot walks of members whose partition ids are distinct. */
export function walksStatement(members: readonly (RecordsMember & { walk: SnapshotWalkRecord })[]): BoundStatement {
  return bound('ops/recordSnapshotWalks.sql', members, [
    [(m) => m.checkpoint.stream, S],
    [(m) => m.checkpoint.partitionId, S],
    [(m) => m.walk.snapshotAt, N],
    [(m) => JSON.stringify(m.walk.params), S],
    [(m) => m.walk.runId, S],
    [(m) => m.walk.rows, N],
    [(m) => m.walk.pages, N],
  ]);
}
