import {
  ChildWorkflowFailure,
  ParentClosePolicy,
  condition,
  WorkflowIdReusePolicy,
  defineQuery,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import type { ExportSummary, VerifyFinding } from '../activities/ports.ts';
import type { SweepOutcome } from '../activities/sweep.ts';
import type { StreamName } from '../common/streamNames.ts';
import { partitionWorkflow, type PartitionWorkflowResult } from './partition.ts';
import { partitionWorkflowId } from './workflowIds.ts';
import { PIPELINE_RETENTION_PATCH, PIPELINE_SWEEP_PATCH, PIPELINE_VERIFY_PATCH } from './patches.ts';
import { ShardRouter, type ShardView } from './shardRouter.ts';
import { mergeValidatorNodeIds } from './shardAssignment.ts';

export interface PipelineInput {
  mode: 'backfill' | 'sync';
  streams?: StreamName[];
  partitionConcurrency: number;
  maxPagesPerBatch: number;
  /** How long one batch activity keeps committing batches (workflows/partition.ts; default 10 s, 0: one batch per activity). */
  activityBudgetMs?: number;
  /** Export Parquet when every partition is done. */
  exportParquet: boolean;
  /**
   * Sharded layout: the shard names (config `shards`). Each partition runs on the shard holding its
   * placement group, `partitionConcurrency` at once per shard. Absent or empty: one worker, as before.
   */
  shards?: string[];
  /**
   * After the export, run `verify` in this mode ('changed': what the run committed, see
   * activities/verify/verifier.ts). Absent: no checks (runs started by 0.1.0 and their schedules).
   */
  verify?: 'changed' | 'full';
}

export type PartitionState = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface PipelinePartitionStatus {
  partitionId: string;
  stream: StreamName;
  state: PartitionState;
  workflowId: string;
  rows: number;
  pages: number;
  error?: string;
  /** Sharded layout: the shard it runs on (unset while the shards have not all answered). */
  shard?: string;
  /**
   * 'sweep' while the wave's sweep (one activity, no child workflow) holds the partition, and after
   * the sweep finished it; unset when its child workflow ran (then `workflowId` is that workflow).
   */
  via?: 'sweep';
}

export interface PipelineStatus {
  mode: PipelineInput['mode'];
  phase: 'planning' | 'syncing' | 'derived' | 'exporting' | 'verifying' | 'done';
  snapshotAt: number;
  partitions: PipelinePartitionStatus[];
  exported?: ExportSummary;
  /** The checks run after the export (input.verify), problems first. */
  verified?: { checks: number; problems: VerifyFinding[] };
  /** Run records deleted by retention (config warehouse.runRecordsDays) at the end of the run. */
  retention?: { runRecords: number };
  /** Sharded layout: what the pipeline knows of each shard. */
  shards?: ShardView[];
}

export const pipelineStatusQuery = defineQuery<PipelineStatus>('status');

const { planPartitions, exportParquet } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumInterval: '1 minute' },
});

/**
 * The sweep: one batch of every partition of a wave in one activity (activities/sweep.ts). It
 * heartbeats as partitions settle; a retry skips what an earlier attempt settled. A sweep that fails
 * every attempt costs nothing but time: its partitions run as child workflows.
 */
const { syncSweep } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/** Checks and housekeeping heartbeat while they run (keepAlive): a worker killed in one is noticed within a minute. */
const { verify, applyRetention } = proxyActivities<Activities>({ startToCloseTimeout: '30 minutes', heartbeatTimeout: '1 minute', retry: { maximumAttempts: 3 } });

/**
 * One pipeline run: plans partitions, runs one child workflow per partition (deterministic id, at
 * most `partitionConcurrency` at once), then the partitions derived from what the first wave found
 * (rewards for discovered validators), then the Parquet export. A failed partition is recorded with
 * its error; the others finish.
 */
export async function pipelineWorkflow(input: PipelineInput): Promise<PipelineStatus> {
  const info = workflowInfo();
  const status: PipelineStatus = {
    mode: input.mode,
    phase: 'planning',
    snapshotAt: Math.floor(Date.now() / 1000),
    partitions: [],
  };
  setHandler(pipelineStatusQuery, () => status);
  const runId = `${info.workflowId}/${info.runId}`;

  const runWave = async (partitions: PartitionSpec[]) => {
    const fresh = partitions.filter((p) => !status.partitions.some((s) => s.partitionId === p.id));
    const entries = fresh.map((p) => {
      const entry: PipelinePartitionStatus = { partitionId: p.id, stream: p.stream, state: 'pending', workflowId: partitionWorkflowId(p.id, info.taskQueue), rows: 0, pages: 0 };
      status.partitions.push(entry);
      return { spec: p, entry };
    });
    // A sync's partitions mostly need one batch (a night's growth, or none): one sweep activity runs
    // that batch of each, and only what it did not finish runs as a child workflow (from the
    // checkpoint the sweep committed). A backfill's partitions need many batches each, so it keeps
    // one child per partition; the sharded layout too (a sweep would be needed per shard queue).
    const children = input.mode === 'sync' && entries.length > 0 && patched(PIPELINE_SWEEP_PATCH) ? await sweep(entries) : entries;
    let next = 0;
    const lane = async () => {
      while (next < children.length) {
        const { spec, entry } = children[next++];
        await runPartition(spec, entry);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, input.partitionConcurrency) }, lane));
  };

  /** Runs the sweep over a wave's entries; returns those left to child workflows. */
  const sweep = async <E extends { spec: PartitionSpec; entry: PipelinePartitionStatus }>(entries: E[]): Promise<E[]> => {
    for (const { entry } of entries) {
      entry.state = 'running';
      entry.via = 'sweep';
    }
    let outcomes: SweepOutcome[] = [];
    try {
      outcomes = await syncSweep({
        partitions: entries.map((e) => e.spec),
        mode: input.mode,
        runId,
        snapshotAt: status.snapshotAt,
        maxPagesPerBatch: input.maxPagesPerBatch,
        concurrency: input.partitionConcurrency,
      });
    } catch (error) {
      if (isCancellation(error)) throw error;
      // Every partition goes to its child workflow, which resumes from what the sweep committed.
    }
    const byId = new Map(outcomes.map((o) => [o.partitionId, o]));
    return entries.filter(({ spec, entry }) => {
      const outcome = byId.get(spec.id);
      if (outcome && !('handOff' in outcome)) {
        entry.rows += outcome.rows;
        entry.pages += outcome.pages;
        if (outcome.done) {
          entry.state = 'done';
          return false;
        }
      }
      entry.state = 'pending';
      delete entry.via;
      return true;
    });
  };

  const router = input.shards?.length ? new ShardRouter(input.shards, info.taskQueue, runId) : undefined;
  if (router) status.shards = router.views;

  const runPartition = async (spec: PartitionSpec, entry: PipelinePartitionStatus) => {
    entry.state = 'running';
    try {
      // Sharded: the partition workflow runs on its shard's queue, so its batches (activities on the
      // workflow's own queue) run where its checkpoint is, and wait there while that shard is down.
      const taskQueue = router && entry.shard ? router.shardQueue(entry.shard) : undefined;
      const child = await startChild(partitionWorkflow, {
        workflowId: entry.workflowId,
        ...(taskQueue ? { taskQueue } : {}),
        args: [{ partition: spec, mode: input.mode, runId, snapshotAt: status.snapshotAt, maxPagesPerBatch: input.maxPagesPerBatch, activityBudgetMs: input.activityBudgetMs }],
        // A closed partition workflow may run again; a running one is never started twice.
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      });
      const result: PartitionWorkflowResult = await child.result();
      // Added to what a sweep committed before the child ran (0 otherwise).
      entry.rows += result.rows;
      entry.pages += result.pages;
      entry.state = 'done';
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        entry.state = 'skipped';
        entry.error = 'partition already running in another workflow';
        return;
      }
      entry.state = 'failed';
      entry.error = rootMessage(error);
    }
  };

  /**
   * Sharded: each partition waits until the router knows its shard, then takes one of that shard's
   * `partitionConcurrency` lanes. A down shard holds up only its own lanes.
   */
  const runShardedWave = async (shards: ShardRouter, partitions: PartitionSpec[]) => {
    const fresh = partitions.filter((p) => !status.partitions.some((s) => s.partitionId === p.id));
    const entries = fresh.map((p) => {
      const entry: PipelinePartitionStatus = { partitionId: p.id, stream: p.stream, state: 'pending', workflowId: partitionWorkflowId(p.id, info.taskQueue), rows: 0, pages: 0 };
      status.partitions.push(entry);
      return { spec: p, entry, taken: false };
    });
    const byId = new Map(entries.map((e) => [e.spec.id, e]));
    let routing = true;
    const routed = shards
      .route(fresh, (spec, route) => {
        const e = byId.get(spec.id)!;
        if ('shard' in route) e.entry.shard = route.shard;
        else {
          e.entry.state = 'failed';
          e.entry.error = route.conflict;
        }
      })
      .finally(() => {
        routing = false;
      });
    const nextFor = (shard: string) => entries.find((e) => !e.taken && e.entry.shard === shard && e.entry.state === 'pending');
    const lane = async (shard: string) => {
      for (;;) {
        await condition(() => !routing || nextFor(shard) !== undefined);
        const next = nextFor(shard);
        if (!next) return;
        next.taken = true;
        await runPartition(next.spec, next.entry);
      }
    };
    const lanes = (input.shards ?? []).flatMap((shard) => Array.from({ length: Math.max(1, input.partitionConcurrency) }, () => lane(shard)));
    await Promise.all([routed, ...lanes]);
  };

  const plan = { streams: input.streams, runId, mode: input.mode, snapshotAt: status.snapshotAt };
  status.phase = 'syncing';
  if (!router) {
    await runWave(await planPartitions({ ...plan, discovered: false }));
    status.phase = 'derived';
    await runWave(await planPartitions({ ...plan, discovered: true }));
  } else {
    // Planning is the same on any shard (config + API heads); it runs on the first to answer.
    const planner = router.activitiesOn(await router.firstUp());
    await runShardedWave(router, await planner.planPartitions({ ...plan, discovered: false }));
    status.phase = 'derived';
    // Validators are stored where primary-network groups live; derived partitions are planned from all of them.
    const found = await Promise.all(router.holdersOfKind('pn/').map((shard) => router.activitiesOn(shard).storedValidatorNodeIds()));
    await runShardedWave(router, await planner.planPartitions({ ...plan, discovered: true, validatorNodeIds: mergeValidatorNodeIds(found) }));
  }
  if (input.exportParquet) {
    status.phase = 'exporting';
    if (!router) status.exported = await exportParquet({});
    else {
      // Every shard exports its own files into the one lake.
      const parts = await Promise.all(router.involved().map((shard) => router.activitiesOn(shard).exportParquet({})));
      status.exported = parts.reduce((sum, p) => ({ files: sum.files + p.files, tables: Math.max(sum.tables, p.tables), unchanged: sum.unchanged + p.unchanged, deleted: sum.deleted + p.deleted }), { files: 0, tables: 0, unchanged: 0, deleted: 0 });
    }
  }
  // New steps at the end of the run: behind patches, so histories recorded without them replay as before.
  if (patched(PIPELINE_RETENTION_PATCH)) {
    status.retention = router
      ? { runRecords: (await Promise.all(router.involved().map((shard) => router.activitiesOn(shard).applyRetention()))).reduce((n, r) => n + r.runRecords, 0) }
      : await applyRetention();
  }
  if (input.verify && patched(PIPELINE_VERIFY_PATCH)) {
    status.phase = 'verifying';
    const findings = router
      ? (await Promise.all(router.involved().map((shard) => router.activitiesOn(shard).verify({ mode: input.verify, scope: 'shard' })))).flat()
      : await verify({ mode: input.verify });
    status.verified = { checks: findings.length, problems: findings.filter((f) => !f.ok) };
  }
  status.phase = 'done';
  return status;
}

function rootMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof ChildWorkflowFailure || (current instanceof Error && current.cause instanceof Error)) {
    current = (current as Error).cause;
  }
  return current instanceof Error ? current.message : String(current);
}
