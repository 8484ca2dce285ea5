import { BOOLEAN, DOUBLE, LIST, listValue, VARCHAR, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { CheckpointWrite, RunRecord, SnapshotWalkRecord } from './warehouse.ts';

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

/** The checkpoints of members whose partition ids are distinct, stamped with the commit's time. */
export function checkpointsStatement(members: readonly RecordsMember[], updatedAt: string): BoundStatement {
  const c = members.map((m) => m.checkpoint);
  return {
    file: 'ops/upsertCheckpoints.sql',
    params: [
      listValue(c.map((x) => x.partitionId)),
      listValue(c.map((x) => x.stream)),
      listValue(c.map((x) => x.pageToken)),
      listValue(c.map((x) => JSON.stringify(x.cursor))),
      listValue(c.map((x) => x.rows)),
      listValue(c.map((x) => x.pages)),
      listValue(c.map((x) => x.complete)),
      updatedAt,
    ],
    types: [S, S, S, S, N, N, B, VARCHAR],
  };
}

/** Run records (deltas) of (run, partition) pairs that are distinct. */
export function runRecordsStatement(rows: readonly { run: RunRecord; partitionId: string; stream: string }[]): BoundStatement {
  const col = <T extends DuckDBValue>(f: (r: { run: RunRecord; partitionId: string; stream: string }) => T) => listValue(rows.map(f));
  return {
    file: 'ops/recordSyncRuns.sql',
    params: [
      col((r) => r.run.runId),
      col((r) => r.partitionId),
      col((r) => r.stream),
      col((r) => r.run.mode),
      col((r) => r.run.snapshotAt),
      col((r) => r.run.pages),
      col((r) => r.run.rows),
      col((r) => r.run.done),
      col((r) => r.run.cost?.requests ?? 0),
      col((r) => r.run.cost?.cu ?? 0),
      col((r) => r.run.cost?.rejected429 ?? 0),
      col((r) => r.run.cost?.items ?? 0),
      col((r) => r.run.cost?.weight ?? null),
      col((r) => r.run.cost?.pageLimit ?? null),
      col((r) => r.run.cost?.cutPages ?? 0),
      col((r) => r.run.cost?.cutItems ?? 0),
    ],
    types: [S, S, S, S, N, N, N, B, N, N, N, N, N, N, N, N],
  };
}

/**
 * The field records (_glacier_stream_fields: a partition's top-level fields and whether every item
 * sent them) of members whose partition ids are distinct, one row per (partition, field); undefined
 * when none changed. A partition still counting its baseline writes some every night.
 */
export function fieldsStatement(members: readonly RecordsMember[]): BoundStatement | undefined {
  const rows = members.flatMap(({ checkpoint, run }) => [...(run?.fields ?? [])].map(([path, f]) => ({ scope: checkpoint.partitionId, runId: run!.runId, path, f })));
  if (rows.length === 0) return undefined;
  return {
    file: 'ops/recordStreamFields.sql',
    params: [
      listValue(rows.map((r) => r.scope)),
      listValue(rows.map((r) => r.runId)),
      listValue(rows.map((r) => r.path)),
      listValue(rows.map((r) => r.f.items)),
      listValue(rows.map((r) => r.f.always)),
    ],
    types: [S, S, S, N, B],
  };
}

/** Finished snapshot walks of members whose partition ids are distinct. */
export function walksStatement(members: readonly (RecordsMember & { walk: SnapshotWalkRecord })[]): BoundStatement {
  return {
    file: 'ops/recordSnapshotWalks.sql',
    params: [
      listValue(members.map((m) => m.checkpoint.stream)),
      listValue(members.map((m) => m.checkpoint.partitionId)),
      listValue(members.map((m) => m.walk.snapshotAt)),
      listValue(members.map((m) => JSON.stringify(m.walk.params))),
      listValue(members.map((m) => m.walk.runId)),
      listValue(members.map((m) => m.walk.rows)),
      listValue(members.map((m) => m.walk.pages)),
    ],
    types: [S, S, N, S, S, N, N],
  };
}
