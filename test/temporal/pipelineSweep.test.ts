import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';
import type { PipelineStatus } from '../../workflows/pipeline.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { SyncPort } from '../../activities/ports.ts';

/** Events of a pipeline run's history: child workflows it started, and the sweep activity's attempts. */
async function historyOf(client: Client, workflowId: string) {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = new Map<string, string>();
  for (const e of events) if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
  return {
    childStarts: events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!),
    sweeps: events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'syncSweep').length,
    sweepAttempts: events
      .filter((e) => e.activityTaskStartedEventAttributes && scheduled.get(String(e.activityTaskStartedEventAttributes.scheduledEventId)) === 'syncSweep')
      .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1),
  };
}

async function expectEqualsTruth(h: PipelineHarness, status: PipelineStatus, partitions: PartitionSpec[]) {
  const comparison = await compareWithTruth(h.sim, h.runtime.warehouse, partitions, { snapshotAt: status.snapshotAt });
  const bad = comparison.filter((c) => c.lost || c.duplicated);
  expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
}

function notDone(status: PipelineStatus) {
  return status.partitions.filter((p) => p.state !== 'done');
}

async function planAll(h: PipelineHarness): Promise<PartitionSpec[]> {
  return [...(await h.runtime.deps.sync!.planPartitions({})), ...(await h.runtime.deps.sync!.planPartitions({ discovered: true }))];
}

describe('sync sweep: one activity runs a batch of every partition, children only for the rest', () => {
  let h: PipelineHarness;
  let partitions: PartitionSpec[];
  /** Sweep attempts to fail after running the first half of their partitions (a worker lost mid-sweep). */
  let failSweepAttempts = 0;
  let planned = 0;
  /** Partitions whose every batch fails with a non-retryable error (the last test). */
  const failing = new Set<string>();
  beforeAll(async () => {
    h = await startPipelineHarness({
      deps: (deps) => {
        const sync = deps.sync!;
        const faulty: SyncPort = {
          ...sync,
          planPartitions: (input) => sync.planPartitions(input),
          readCheckpoint: (id) => sync.readCheckpoint(id),
          async syncBatch(input) {
            if (failing.has(input.partition.id)) throw Object.assign(new Error('Invalid address format'), { kind: 'non-retryable' });
            return sync.syncBatch(input);
          },
        };
        return { ...deps, sync: faulty };
      },
      activities: (a) => ({
        ...a,
        async syncSweep(input) {
          if (Context.current().info.attempt > failSweepAttempts) return a.syncSweep(input);
          await a.syncSweep({ ...input, partitions: input.partitions.slice(0, Math.ceil(input.partitions.length / 2)) });
          throw new Error('worker lost mid-sweep');
        },
      }),
    });
    partitions = await planAll(h);
    const backfill = await h.run({ mode: 'backfill' });
    expect(notDone(backfill)).toEqual([]);
    planned = backfill.partitions.length;
  });
  afterAll(async () => h?.close());

  it('an idle night runs no child workflow: every partition is done by the sweep', async () => {
    const id = `sweep-idle-${h.tw.taskQueue}`;
    const status = await h.run({ mode: 'sync' }, id);
    expect(notDone(status)).toEqual([]);
    expect(status.partitions.length).toBe(planned);
    expect(status.partitions.filter((p) => p.via !== 'sweep')).toEqual([]);
    const history = await historyOf(h.tw.client, id);
    expect(history.childStarts).toEqual([]);
    // One sweep per wave (configured, derived).
    expect(history.sweeps).toBe(2);
    await expectEqualsTruth(h, status, partitions);
  });

  it('a partition with more pages than one batch is handed off and finishes as its child workflow', async () => {
    // 60 new blocks per chain: two pages of 50, one page a batch.
    h.sim.advance(60);
    const id = `sweep-growth-${h.tw.taskQueue}`;
    const status = await h.run({ mode: 'sync', maxPagesPerBatch: 1 }, id);
    expect(notDone(status)).toEqual([]);
    const history = await historyOf(h.tw.client, id);
    const blocks = status.partitions.filter((p) => p.stream === 'evm.blocks');
    expect(blocks.length).toBeGreaterThan(0);
    for (const p of blocks) {
      // The sweep's page and the child's pages both count.
      expect(p.via).toBeUndefined();
      expect(p.pages).toBeGreaterThanOrEqual(2);
      expect(p.rows).toBeGreaterThanOrEqual(60);
      expect(history.childStarts).toContain(p.workflowId);
    }
    expect(history.childStarts.length).toBeLessThan(status.partitions.length);
    expect(status.partitions.some((p) => p.via === 'sweep')).toBe(true);
    await expectEqualsTruth(h, status, partitions);
  }, 600_000);

  it('a sweep lost mid-way is retried and the run still equals the ground truth', async () => {
    failSweepAttempts = 1;
    h.sim.advance(9);
    const id = `sweep-retried-${h.tw.taskQueue}`;
    const status = await h.run({ mode: 'sync' }, id);
    expect(notDone(status)).toEqual([]);
    const history = await historyOf(h.tw.client, id);
    expect(Math.max(...history.sweepAttempts)).toBe(2);
    await expectEqualsTruth(h, status, partitions);
  });

  it('a sweep that fails every attempt leaves every partition to its child workflow', async () => {
    failSweepAttempts = 99;
    h.sim.advance(9);
    const id = `sweep-failed-${h.tw.taskQueue}`;
    const status = await h.run({ mode: 'sync' }, id);
    expect(notDone(status)).toEqual([]);
    const history = await historyOf(h.tw.client, id);
    expect(history.childStarts.length).toBe(status.partitions.length);
    expect(status.partitions.every((p) => p.via === undefined)).toBe(true);
    await expectEqualsTruth(h, status, partitions);
    failSweepAttempts = 0;
  });

  // On the same warehouse as the nights above (a backfill of its own cost a whole second harness).
  it('a failing partition is handed off, recorded failed with its error by its child workflow, and the others finish', async () => {
    failSweepAttempts = 0;
    const bad = partitions.find((p) => p.stream === 'evm.blocks')!;
    failing.add(bad.id);
    h.sim.advance(5);
    const id = `sweep-failing-${h.tw.taskQueue}`;
    const status = await h.run({ mode: 'sync' }, id);
    expect(notDone(status)).toEqual([expect.objectContaining({ partitionId: bad.id, state: 'failed', error: 'Invalid address format' })]);
    const history = await historyOf(h.tw.client, id);
    expect(history.childStarts).toEqual([status.partitions.find((p) => p.partitionId === bad.id)!.workflowId]);
    // Its stream's tables hold the other chains' rows too: compared without that stream.
    const others = partitions.filter((p) => p.stream !== bad.stream);
    await expectEqualsTruth(h, status, others);
  });
});
