import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import type { MaintenancePort, SyncPort } from '../../activities/ports.ts';
import type { BatchInput, BatchResult, CheckpointView, PartitionSpec } from '../../activities/sync/types.ts';
import { pipelineWorkflow } from '../../workflows/index.ts';
import { partitionWorkflowId } from '../../workflows/workflowIds.ts';
import { startTestWorker, type TestWorker } from '../helpers/testWorker.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';

/** These workers script the sync and hold no warehouse: no run records to prune at a pipeline's end. */
const noRunRecords: MaintenancePort = { applyRetention: async () => ({ runRecords: 0 }), recordRunSize: async (runId) => ({ runId, warehouse: { tableRows: {}, rows: 0, bytes: 0 } }) };

/**
 * Workflow mechanics on the real dev server, with a small in-memory sync port standing in for the
 * API + warehouse (those have their own tests): batching to completion, a quota pause that sleeps
 * until the reset and resumes without losing pages, and a non-retryable failure that fails only
 * its own partition.
 */
class ScriptedSync implements SyncPort {
  readonly committed = new Map<string, number[]>();
  /** Set when partition b reaches two pages: the quota is spent until then, and every call before it fails (as the API's would). */
  quotaResetAt: number | undefined;
  quotaErrors = 0;
  readonly calls = new Map<string, number>();
  constructor(private readonly pagesPerPartition: number) {}

  async planPartitions(input: { discovered?: boolean }): Promise<PartitionSpec[]> {
    if (input.discovered) return [{ stream: 'pn.rewards', id: 'pn.rewards/derived', params: {} }];
    return ['a', 'b', 'c', 'bad'].map((k) => ({ stream: 'evm.blocks' as const, id: `evm.blocks/${k}`, params: {} }));
  }

  async syncBatch(input: BatchInput): Promise<BatchResult> {
    const id = input.partition.id;
    this.calls.set(id, (this.calls.get(id) ?? 0) + 1);
    if (id.endsWith('/bad')) throw Object.assign(new Error('Invalid address format'), { kind: 'non-retryable' });
    const pages = this.committed.get(id) ?? [];
    if (id.endsWith('/b') && pages.length === 2) {
      this.quotaResetAt ??= Date.now() + 1500;
      if (Date.now() < this.quotaResetAt) {
        this.quotaErrors += 1;
        throw Object.assign(new Error('daily quota exhausted'), { kind: 'quota-exhausted', resetAt: new Date(this.quotaResetAt) });
      }
    }
    let fetched = 0;
    while (fetched < input.maxPages && pages.length < this.pagesPerPartition) {
      pages.push(pages.length);
      fetched += 1;
    }
    this.committed.set(id, pages);
    const done = pages.length >= this.pagesPerPartition;
    return { done, pages: fetched, rows: fetched * 10, checkpoint: (await this.readCheckpoint(id))! };
  }

  async readCheckpoint(partitionId: string): Promise<CheckpointView | undefined> {
    const pages = this.committed.get(partitionId) ?? [];
    return { partitionId, stream: 'evm.blocks', pageToken: null, cursor: {}, rows: pages.length * 10, pages: pages.length, complete: pages.length >= this.pagesPerPartition, updatedAt: new Date().toISOString() };
  }
}

describe('pipeline and partition workflows', () => {
  let tw: TestWorker;
  const sync = new ScriptedSync(7);
  beforeAll(async () => {
    tw = await startTestWorker({ activities: createActivities({ logger: capturedLogger('warn').logger, sync, maintenance: noRunRecords }) });
  });
  afterAll(async () => tw?.close());

  it('runs every partition to completion, pauses through an exhausted quota, isolates a failing partition', async () => {
    const status = await tw.run(() =>
      tw.client.workflow.execute(pipelineWorkflow, {
        taskQueue: tw.taskQueue,
        workflowId: `pipeline-${tw.taskQueue}`,
        // A 10 s activity budget: one activity call commits batch after batch.
        args: [{ mode: 'backfill', partitionConcurrency: 2, maxPagesPerBatch: 2, activityBudgetMs: 10_000, exportParquet: false }],
      }),
    );
    const byId = Object.fromEntries(status.partitions.map((p) => [p.partitionId, p]));
    expect(Object.keys(byId).sort()).toEqual(['evm.blocks/a', 'evm.blocks/b', 'evm.blocks/bad', 'evm.blocks/c', 'pn.rewards/derived']);
    for (const id of ['evm.blocks/a', 'evm.blocks/b', 'evm.blocks/c', 'pn.rewards/derived']) {
      expect(byId[id].state).toBe('done');
      expect(byId[id].pages).toBe(7);
      expect(sync.committed.get(id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
    expect(byId['evm.blocks/bad'].state).toBe('failed');
    expect(byId['evm.blocks/bad'].error).toBe('Invalid address format');
    expect(sync.quotaErrors).toBeGreaterThan(0);

    // The quota pause happened inside the partition workflow, as a durable timer.
    const history = await tw.client.workflow.getHandle(partitionWorkflowId('evm.blocks/b', tw.taskQueue)).fetchHistory();
    expect(history.events?.some((e) => e.timerStartedEventAttributes)).toBe(true);

    // One activity ran all four batches of a partition (each its own commit).
    expect(sync.calls.get('evm.blocks/a')).toBe(4);
    expect(await scheduledActivities(tw, 'evm.blocks/a')).toBe(1);
  });
});

describe('partition workflow with the default activity budget (0)', () => {
  let tw: TestWorker;
  const sync = new ScriptedSync(7);
  beforeAll(async () => {
    tw = await startTestWorker({ activities: createActivities({ logger: capturedLogger('warn').logger, sync, maintenance: noRunRecords }) });
  });
  afterAll(async () => tw?.close());

  it('runs one batch per activity', async () => {
    const status = await tw.run(() =>
      tw.client.workflow.execute(pipelineWorkflow, {
        taskQueue: tw.taskQueue,
        workflowId: `pipeline-${tw.taskQueue}`,
        args: [{ mode: 'backfill', partitionConcurrency: 2, maxPagesPerBatch: 2, exportParquet: false }],
      }),
    );
    expect(status.partitions.find((p) => p.partitionId === 'evm.blocks/a')).toMatchObject({ state: 'done', pages: 7 });
    expect(await scheduledActivities(tw, 'evm.blocks/a')).toBe(4);
  });
});

async function scheduledActivities(tw: TestWorker, partitionId: string): Promise<number> {
  const history = await tw.client.workflow.getHandle(partitionWorkflowId(partitionId, tw.taskQueue)).fetchHistory();
  return history.events?.filter((e) => e.activityTaskScheduledEventAttributes).length ?? 0;
}
