import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { pipelineStatusQuery, pipelineWorkflow } from '../../workflows/pipeline.ts';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { FIXED_NOW, startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';
import { ManualClock } from '../helpers/manualClock.ts';
import type { PipelineStatus } from '../../workflows/pipeline.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';

function expectAllDone(status: PipelineStatus) {
  const notDone = status.partitions.filter((p) => p.state !== 'done');
  expect(notDone, JSON.stringify(notDone, null, 1)).toEqual([]);
}

async function expectEqualsTruth(h: PipelineHarness, status: PipelineStatus, partitions: PartitionSpec[]) {
  const comparison = await compareWithTruth(h.sim, h.runtime.warehouse, partitions, { snapshotAt: status.snapshotAt });
  const bad = comparison.filter((c) => c.lost || c.duplicated);
  expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
  return comparison;
}

describe('pipeline on the real dev server and simulator', () => {
  let h: PipelineHarness;
  let partitions: PartitionSpec[];
  beforeAll(async () => {
    h = await startPipelineHarness();
    partitions = [...(await h.runtime.deps.sync!.planPartitions({})), ...(await h.runtime.deps.sync!.planPartitions({ discovered: true }))];
  });
  afterAll(async () => h?.close());

  it('a backfill of every stream equals the simulator ground truth exactly', async () => {
    const status = await h.run({ mode: 'backfill' });
    expectAllDone(status);
    const comparison = await expectEqualsTruth(h, status, partitions);
    const expected = Object.fromEntries(comparison.map((c) => [c.table, c.expected]));
    for (const table of ['evm_blocks', 'evm_transactions', 'evm_token_transfers']) expect(expected[table]).toBeGreaterThan(0);
  });

  it('after the simulator advances, sync loads exactly the new items and fetches no page it already had', async () => {
    h.sim.advance(7);
    h.sim.resetStats();
    const status = await h.run({ mode: 'sync' });
    expectAllDone(status);
    const log = h.sim.stats().log; // before the truth comparison makes requests of its own
    await expectEqualsTruth(h, status, partitions);
    const evmChains = h.config.evmChains.length;
    // 7 new blocks fit in one page per chain: a descending walk that stops at the known head.
    // One page per chain (7 new blocks and the known head fit in it), plus at most a one-item head probe.
    const blockRequests = log.filter((r) => /^\/v1\/chains\/[^/]+\/blocks$/.test(r.path));
    const pages = blockRequests.filter((r) => r.query.includes(`pageSize=${h.config.api.pageSize}`));
    const probes = blockRequests.filter((r) => r.query.includes('pageSize=1') && !r.query.includes('pageToken'));
    expect(pages.length, JSON.stringify(blockRequests)).toBe(evmChains);
    expect(pages.every((r) => !r.query.includes('pageToken'))).toBe(true);
    expect(probes.length + pages.length).toBe(blockRequests.length);
    expect(probes.length).toBeLessThanOrEqual(evmChains);
  });

  it('a schedule, triggered, runs a sync', async () => {
    const scheduleId = `sched-${h.tw.taskQueue}`;
    const handle = await h.tw.client.schedule.create({
      scheduleId,
      spec: { cronExpressions: ['0 3 * * *'] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1h' },
      action: {
        type: 'startWorkflow',
        workflowType: pipelineWorkflow,
        taskQueue: h.tw.taskQueue,
        workflowId: `scheduled-sync-${h.tw.taskQueue}`,
        args: [{ mode: 'sync', streams: ['evm.blocks'], partitionConcurrency: 2, maxPagesPerBatch: 5, exportParquet: false }],
      },
    });
    try {
      // Bring evm.blocks up to date first, so the scheduled run has exactly 3 new blocks per chain.
      await h.run({ mode: 'sync', streams: ['evm.blocks'] });
      h.sim.advance(3);
      const countBlocks = async () => Number((await h.runtime.warehouse.query('SELECT count(*) AS n FROM evm_blocks'))[0].n);
      const before = await countBlocks();
      await handle.trigger();
      let started = '';
      const result = await h.tw.run(async () => {
        for (let i = 0; i < 100; i++) {
          const d = await handle.describe();
          const action = d.info.recentActions.at(-1);
          if (action) {
            started = `${action.action.workflow.workflowId}/${action.action.workflow.firstExecutionRunId}`;
            return h.tw.client.workflow.getHandle(action.action.workflow.workflowId, action.action.workflow.firstExecutionRunId).result();
          }
          await new Promise((r) => setTimeout(r, 200));
        }
        throw new Error('schedule never started its workflow');
      });
      expect(result.mode).toBe('sync');
      expect(result.partitions.every((p: { state: string }) => p.state === 'done')).toBe(true);
      expect((await countBlocks()) - before).toBe(3 * h.config.evmChains.length);
      // The scheduled run recorded the warehouse's size at its end, under the run id of its run records.
      const [size] = await h.runtime.warehouse.query('SELECT mode, rows_written, (SELECT sum(rows) FROM _glacier_sync_runs WHERE run_id = $1) AS run_rows, json_extract(table_rows, \'$.evm_blocks\')::BIGINT AS blocks FROM _glacier_run_sizes WHERE run_id = $1', [started]);
      expect(size).toMatchObject({ mode: 'sync', blocks: BigInt(await countBlocks()) });
      expect(size.rows_written).toBe(size.run_rows);
      expect(Number(size.rows_written)).toBeGreaterThanOrEqual(3 * h.config.evmChains.length);
    } finally {
      await handle.delete();
    }
  });
});

describe('quota exhaustion', () => {
  let h: PipelineHarness;
  afterAll(async () => h?.close());

  // The simulator's clock stands still one second before the end of its (24 h) day, so every 429 says
  // "retry in 1 s", but the daily quota resets only when the test moves the clock to the next day,
  // which it does after it has seen a partition start a durable timer. On any machine, however busy,
  // the reset comes after the sleep, never before it.
  const DAY_MS = 86_400_000;
  const lastSecondOfDay = (ms: number) => (Math.floor(ms / DAY_MS) + 1) * DAY_MS - 1000;

  /** Timers started so far by the run's partition workflows (0 before the run or a child exists). */
  async function timersStarted(pipelineId: string): Promise<number> {
    const status = await h.tw.client.workflow.getHandle(pipelineId).query(pipelineStatusQuery).catch(() => undefined);
    let timers = 0;
    for (const p of status?.partitions ?? []) {
      if (p.state === 'pending' || p.via === 'sweep') continue;
      const history = await h.tw.client.workflow.getHandle(p.workflowId).fetchHistory().catch(() => undefined);
      timers += history?.events?.filter((e) => e.timerStartedEventAttributes).length ?? 0;
    }
    return timers;
  }

  it('pauses the partition durably until the quota resets and resumes without losing rows', async () => {
    const clock = new ManualClock(lastSecondOfDay(FIXED_NOW));
    h = await startPipelineHarness({
      sim: { clock: clock.now, rateLimits: { budgets: { none: { perMinute: 1_000_000, perDay: 60 } } } },
      edit: (c) => {
        c.streams = ['evm.blocks'];
        c.api.tier = 'none';
        // Every quota wait leaves the activity (none is waited in-process), so each 429 of a spent
        // day ends in a durable timer.
        c.api.maxQuotaWaitMs = 0;
      },
    });
    const partitions = await h.runtime.deps.sync!.planPartitions({});
    const pipelineId = `pipeline-quota-${h.tw.taskQueue}`;
    let finished = false;
    const run = h.run({ mode: 'backfill' }, pipelineId).finally(() => (finished = true));
    // The day keeper: each new timer is a partition asleep on a spent day; end that day.
    let seen = 0;
    let resets = 0;
    while (!finished) {
      const timers = await timersStarted(pipelineId);
      if (timers > seen) {
        seen = timers;
        clock.set(lastSecondOfDay(clock.now() + DAY_MS));
        resets++;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const status = await run;
    expect(status.partitions.every((p) => p.state === 'done')).toBe(true);
    await expectEqualsTruth(h, status, partitions);
    // At least one partition slept on a durable timer through a reset, and every reset came after one.
    const byStatus = JSON.stringify(h.sim.stats().byStatus);
    expect(resets, byStatus).toBeGreaterThan(0);
    expect(await timersStarted(pipelineId), byStatus).toBeGreaterThanOrEqual(resets);
    expect(h.sim.stats().byStatus[429], byStatus).toBeGreaterThanOrEqual(resets);
  });
});
