/**
 * Records the workflow histories that test/replay/replayHistories.test.ts replays against the
 * current workflow code (`npm run record-histories`). Real parts only: a pinned Temporal dev server,
 * the real simulator over HTTP, real worker runtimes with DuckDB files, and the same workflow bundle
 * the worker runs (worker/workflowBundle.ts). Tiny worlds and a few streams keep the files small.
 *
 * Re-record ONLY at a release whose CHANGELOG says in-flight runs must finish before upgrading
 * (CONTRIBUTING.md, "Workflow changes"): the committed histories stand for runs users have in flight.
 * Histories of an older release can be kept beside the new ones (a subfolder per release).
 *
 * Usage (npm run record-histories -- …):
 *   (no option)        test/histories/unreleased/: histories of code not released yet (a new workflow
 *                      type, a patched path); replaced freely, no user has such runs
 *   --release          test/histories/<package.json version>/, at a release; refuses a folder that
 *                      exists
 *   --release --replace   replaces it: only at a release whose CHANGELOG says runs in flight must
 *                      finish before upgrading
 *   --out <dir>        anywhere else (a scratch look)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import proto from '@temporalio/proto';
const { temporal } = proto;
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.ts';
import { configForWorld, DEMO_RATE_LIMITS } from '../cli/demoConfig.ts';
import { shardTaskQueue } from '../common/shards.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../tools/simulator/index.ts';
import { resolveConfig, type PipelineConfig } from '../worker/config.ts';
import { createWorker } from '../worker/createWorker.ts';
import { DevServer } from '../worker/devServer.ts';
import { createLogger } from '../worker/logger.ts';
import { buildRuntime, type Runtime } from '../worker/runtime.ts';
import { ensureWorkflowBundle } from '../worker/workflowBundle.ts';
import { exportWorkflow, reportWorkflow, shardedExportWorkflow, shardedStatusWorkflow, shardedVerifyWorkflow, statusWorkflow, verifyWorkflow } from '../workflows/index.ts';
import { pipelineWorkflow, type PipelineInput, type PipelineStatus } from '../workflows/pipeline.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const OUT = outAt >= 0 ? args[outAt + 1] : join(ROOT, 'test', 'histories', args.includes('--release') ? VERSION : 'unreleased');
if (args.includes('--release') && existsSync(join(OUT, 'manifest.json')) && !args.includes('--replace')) {
  process.stderr.write(`record-histories: ${OUT} holds release ${VERSION}'s histories already; replacing them needs --replace, allowed only at a release whose CHANGELOG says runs in flight must finish first (CONTRIBUTING.md)\n`);
  process.exit(1);
}
/** Events after which the server suggests continue-as-new: low, so a partition of a tiny world continues-as-new. */
const SUGGEST_CONTINUE_AS_NEW_AT = 20;
const FIXED_NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const logger = createLogger({ level: 'error' });

interface Recorded {
  file: string;
  scenario: string;
  workflowType: string;
  workflowId: string;
  events: number;
}
const recorded: Recorded[] = [];

async function save(client: Client, file: string, scenario: string, workflowId: string, runId?: string): Promise<void> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const events = history.events ?? [];
  const workflowType = events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '?';
  // Binary protobuf (what the server sends), gzipped: exact, small, and read back without protojson.
  const body = temporal.api.history.v1.History.encode(history).finish();
  writeFileSync(join(OUT, `${file}.binpb.gz`), gzipSync(body, { level: 9 }));
  recorded.push({ file: `${file}.binpb.gz`, scenario, workflowType, workflowId, events: events.length });
  process.stderr.write(`recorded ${file} (${workflowType}, ${events.length} events)\n`);
}

/** The first run of a workflow that continued-as-new: walk back from the latest run. */
async function firstRunId(client: Client, workflowId: string): Promise<string | undefined> {
  let runId: string | undefined;
  for (let i = 0; i < 100; i++) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const previous = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return runId;
    runId = previous;
  }
  return runId;
}

/** One simulated world with a worker runtime (DuckDB file) per shard, or one unsharded. */
interface World {
  sim: Simulator;
  taskQueue: string;
  runtimes: Runtime[];
  workers: Worker[];
  running: Promise<unknown>[];
  close(): Promise<void>;
}

async function startWorld(address: string, bundle: string, name: string, options: { sim?: SimulatorOptions; edit?: (c: PipelineConfig) => void; shards?: string[] }): Promise<World> {
  const sim = await startSimulator({ seed: 11, size: 'tiny', clock: () => FIXED_NOW, rateLimits: DEMO_RATE_LIMITS, ...options.sim });
  const dataDir = mkdtempSync(join(tmpdir(), `glacier-record-${name}-`));
  const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir, addressesPerChain: 1 });
  base.api.pageSize = 50;
  base.networks[0].rewardsForDiscoveredValidators = true;
  // A few streams, among them the validators whose rewards make the derived wave.
  base.streams = ['evm.blocks', 'pn.validators', 'pn.rewards'];
  base.temporal.taskQueue = `record-${name}`;
  if (options.shards) base.shards = options.shards;
  options.edit?.(base);
  const taskQueue = base.temporal.taskQueue;
  const runtimes: Runtime[] = [];
  const workers: Worker[] = [];
  const connections: { close(): Promise<void> }[] = [];
  const add = async (queue: string, activities: object) => {
    const { worker, connection } = await createWorker({ address, taskQueue: queue, activities, workflowBundlePath: bundle, logger });
    workers.push(worker);
    connections.push(connection);
  };
  if (options.shards) {
    await add(taskQueue, {});
    for (const shard of options.shards) {
      const config = resolveConfig(base, { GLACIER_SHARD: shard, TEMPORAL_ADDRESS: address });
      const runtime = await buildRuntime(config, logger, {});
      runtimes.push(runtime);
      await add(shardTaskQueue(taskQueue, shard), createActivities(runtime.deps));
    }
  } else {
    const runtime = await buildRuntime(resolveConfig(base, {}), logger, {});
    runtimes.push(runtime);
    await add(taskQueue, createActivities(runtime.deps));
  }
  const running = workers.map((w) => w.run());
  return {
    sim,
    taskQueue,
    runtimes,
    workers,
    running,
    async close() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.allSettled(running);
      for (const c of connections) await c.close();
      for (const r of runtimes) await r.close();
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function pipelineArgs(input: Partial<PipelineInput> & Pick<PipelineInput, 'mode'>): [PipelineInput] {
  return [{ partitionConcurrency: 2, maxPagesPerBatch: 2, activityBudgetMs: 0, exportParquet: false, streams: ['evm.blocks', 'pn.validators', 'pn.rewards'], ...input }];
}

function expectDone(status: PipelineStatus, what: string): void {
  const bad = status.partitions.filter((p) => p.state !== 'done');
  if (bad.length) throw new Error(`${what}: partitions not done: ${JSON.stringify(bad)}`);
  if (!status.partitions.some((p) => p.stream === 'pn.rewards')) throw new Error(`${what}: no derived (pn.rewards) partition ran`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith('.binpb.gz')) rmSync(join(OUT, f));
  const stateDir = mkdtempSync(join(tmpdir(), 'glacier-record-temporal-'));
  const server = await new DevServer({
    dataDir: stateDir,
    headless: true,
    extraArgs: ['--dynamic-config-value', `limit.historyCount.suggestContinueAsNew=${SUGGEST_CONTINUE_AS_NEW_AT}`],
  }).start();
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  const bundle = await ensureWorkflowBundle();
  const worlds: World[] = [];
  try {
    // 1. Backfill and sync pipelines with their derived wave; a partition that continues-as-new
    //    (one page per batch: evm.blocks of a tiny world needs more batches than the suggestion allows).
    const one = await startWorld(server.address, bundle, `single-${Date.now()}`, { edit: (c) => (c.api.pageSize = 10) });
    worlds.push(one);
    const backfillId = `record-backfill-${one.taskQueue}`;
    const backfill = await client.workflow.execute(pipelineWorkflow, { taskQueue: one.taskQueue, workflowId: backfillId, args: pipelineArgs({ mode: 'backfill', maxPagesPerBatch: 1 }) });
    expectDone(backfill, 'backfill');
    await save(client, 'pipeline-backfill', 'backfill pipeline: planning, first wave, derived wave (pn.rewards of discovered validators)', backfillId);
    const rewards = backfill.partitions.find((p) => p.stream === 'pn.rewards')!;
    await save(client, 'partition-derived', 'a derived-wave partition (pn.rewards) walked to its end', rewards.workflowId);
    let continued: string | undefined;
    for (const p of backfill.partitions) {
      const first = await firstRunId(client, p.workflowId);
      if (first) {
        await save(client, 'partition-continue-as-new', 'a partition whose history grew past the suggestion: continues-as-new with its progress carried', p.workflowId, first);
        await save(client, 'partition-after-continue-as-new', 'the last run of that partition (started with carried progress) walks to its end', p.workflowId);
        continued = p.workflowId;
        break;
      }
    }
    if (!continued) throw new Error('no partition continued-as-new: lower SUGGEST_CONTINUE_AS_NEW_AT or the page size');

    // 25 new blocks: three pages of 10 at two pages a batch, so evm.blocks is handed off by the
    // sweep to its child workflow, while the partitions with less to read finish in the sweep.
    one.sim.advance(25);
    const syncId = `record-sync-${one.taskQueue}`;
    const sync = await client.workflow.execute(pipelineWorkflow, { taskQueue: one.taskQueue, workflowId: syncId, args: pipelineArgs({ mode: 'sync', exportParquet: true }) });
    expectDone(sync, 'sync');
    await save(client, 'pipeline-sync-export', 'sync pipeline with derived wave and the Parquet export: the sweep, then child workflows for what it did not finish', syncId);
    const blocks = sync.partitions.find((p) => p.stream === 'evm.blocks')!;
    if (blocks.via === 'sweep') throw new Error('evm.blocks finished in the sweep: advance the world further so partition-sync records a child workflow');
    if (!sync.partitions.some((p) => p.via === 'sweep')) throw new Error('no partition finished in the sweep');
    await save(client, 'partition-sync', 'an incremental partition walk (evm.blocks, sync)', blocks.workflowId);

    // 2. The maintenance workflows.
    for (const [file, wf, args] of [
      ['maintenance-status', statusWorkflow, []],
      ['maintenance-export', exportWorkflow, [{}]],
      ['maintenance-verify', verifyWorkflow, [{ streams: ['evm.blocks', 'pn.validators', 'pn.rewards'] }]],
      ['maintenance-report', reportWorkflow, []],
    ] as const) {
      const id = `record-${file}-${one.taskQueue}`;
      await client.workflow.execute(wf as typeof statusWorkflow, { taskQueue: one.taskQueue, workflowId: id, args: args as [] });
      await save(client, file, `${wf.name}`, id);
    }

    // 3. A schedule's run: the CLI's schedule shape (cli/commands/schedule.ts), triggered.
    one.sim.advance(3);
    const scheduleId = `record-schedule-${one.taskQueue}`;
    const schedule = await client.schedule.create({
      scheduleId,
      memo: { cron: '0 3 * * *' },
      spec: { cronExpressions: ['0 3 * * *'] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '6h' },
      action: { type: 'startWorkflow', workflowType: pipelineWorkflow, taskQueue: one.taskQueue, workflowId: `record-scheduled-sync-${one.taskQueue}`, args: pipelineArgs({ mode: 'sync', exportParquet: true }) },
    });
    try {
      await schedule.trigger();
      let started: { workflowId: string; firstExecutionRunId: string } | undefined;
      for (let i = 0; i < 200 && !started; i++) {
        started = (await schedule.describe()).info.recentActions.at(-1)?.action.workflow;
        if (!started) await new Promise((r) => setTimeout(r, 100));
      }
      if (!started) throw new Error('the schedule never started its workflow');
      expectDone((await client.workflow.getHandle(started.workflowId, started.firstExecutionRunId).result()) as PipelineStatus, 'scheduled sync');
      await save(client, 'schedule-run', "a schedule's triggered run (pipelineWorkflow started by a Temporal Schedule)", started.workflowId, started.firstExecutionRunId);
    } finally {
      await schedule.delete();
    }

    // 4. A quota pause on a durable timer: a day of 4 s with 60 CU, every quota wait left to the workflow.
    const quota = await startWorld(server.address, bundle, `quota-${Date.now()}`, {
      sim: { clock: Date.now, rateLimits: { budgets: { none: { perMinute: 1_000_000, perDay: 60 } }, dayMs: 4000 } },
      edit: (c) => {
        c.streams = ['evm.blocks'];
        c.api.tier = 'none';
        c.api.maxQuotaWaitMs = 0;
      },
    });
    worlds.push(quota);
    const quotaId = `record-quota-${quota.taskQueue}`;
    const paused = await client.workflow.execute(pipelineWorkflow, { taskQueue: quota.taskQueue, workflowId: quotaId, args: pipelineArgs({ mode: 'backfill', streams: ['evm.blocks'], maxPagesPerBatch: 5 }) });
    let timer: string | undefined;
    for (const p of paused.partitions) {
      const history = await client.workflow.getHandle(p.workflowId).fetchHistory();
      if (history.events?.some((e) => e.timerStartedEventAttributes)) timer = p.workflowId;
    }
    if (!timer) throw new Error('no partition slept on a durable timer: the quota was never exhausted');
    await save(client, 'partition-quota-pause', 'a partition that met an exhausted daily quota, slept on a durable timer until the reset and went on', timer);

    // 5. Shard routing: two shards; the pipeline asks each what it holds, claims new groups, runs each
    //    partition on its shard's queue, exports on every shard; then the sharded maintenance workflows.
    const shards = ['a', 'b'];
    const sharded = await startWorld(server.address, bundle, `shards-${Date.now()}`, { shards });
    worlds.push(sharded);
    const shardedId = `record-sharded-${sharded.taskQueue}`;
    const shardedStatus = await client.workflow.execute(pipelineWorkflow, { taskQueue: sharded.taskQueue, workflowId: shardedId, args: pipelineArgs({ mode: 'backfill', shards, exportParquet: true }) });
    expectDone(shardedStatus, 'sharded backfill');
    await save(client, 'pipeline-sharded', 'sharded backfill: shard routing, claims, per-shard partitions and exports', shardedId);
    const onShard = shardedStatus.partitions.find((p) => p.stream === 'evm.blocks')!;
    await save(client, 'partition-on-shard', "a partition run on its shard's task queue", onShard.workflowId);
    for (const [file, wf, args] of [
      ['maintenance-sharded-status', shardedStatusWorkflow, [{ shards }]],
      ['maintenance-sharded-export', shardedExportWorkflow, [{ shards }]],
      ['maintenance-sharded-verify', shardedVerifyWorkflow, [{ shards, streams: ['evm.blocks', 'pn.validators', 'pn.rewards'] }]],
    ] as const) {
      const id = `record-${file}-${sharded.taskQueue}`;
      await client.workflow.execute(wf as typeof shardedStatusWorkflow, { taskQueue: sharded.taskQueue, workflowId: id, args: args as [{ shards: string[] }] });
      await save(client, file, `${wf.name} over two shards`, id);
    }
  } finally {
    for (const w of worlds) await w.close();
    await connection.close();
    await server.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const git = (rev: string) => {
    try {
      return execFileSync('git', ['rev-parse', rev], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const sdk = (await import('@temporalio/workflow/package.json', { with: { type: 'json' } })).default.version;
  writeFileSync(
    join(OUT, 'manifest.json'),
    `${JSON.stringify({ release: args.includes('--release') ? VERSION : `unreleased (after ${VERSION})`, recordedFrom: git('HEAD'), workflowsTree: git('HEAD:workflows'), temporalSdk: sdk, note: 'Recorded by scripts/recordHistories.ts (npm run record-histories); replayed by test/replay/replayHistories.test.ts. Re-record only at a release that says in-flight runs must finish first (CONTRIBUTING.md).', histories: recorded }, null, 2)}\n`,
  );
  process.stderr.write(`${recorded.length} histories in ${OUT}\n`);
}

await main();
