import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { configForWorld } from '../../cli/demoConfig.ts';
import { startSimulator, type Simulator } from '../../tools/simulator/index.ts';
import { resolveConfig, type ResolvedConfig } from '../../worker/config.ts';
import { DevServer } from '../../worker/devServer.ts';
import { buildRuntime } from '../../worker/runtime.ts';
import { createLogger } from '../../worker/logger.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { readSchemaVersion, WAREHOUSE_SCHEMA_VERSION } from '../../activities/warehouse/schemaVersion.ts';
import { warehousePath } from '../../worker/paths.ts';
import { pipelineWorkflowId } from '../../workflows/workflowIds.ts';
import type { PipelineStatus } from '../../workflows/pipeline.ts';
import type { PartitionWorkflowResult } from '../../workflows/partition.ts';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { cliArgv } from '../helpers/cliEntry.ts';
import { runCli } from '../helpers/runCli.ts';
import { FIXED_NOW } from '../helpers/pipelineHarness.ts';
import { buildPreviousRelease, releaseSchemaVersion, type BuiltRelease } from './previousRelease.ts';
import { runNode } from '../helpers/runCli.ts';

/**
 * An upgrade in flight, end to end on real parts. The previous release (CHANGELOG.md's newest
 * released entry, built from its commit in a temporary worktree) runs a worker against a pinned
 * dev server whose state lives in the data directory; its CLI starts a backfill and creates a
 * schedule. The old worker is SIGKILLed mid-walk; the current code's worker takes over the same
 * Temporal state and data directory (replaying the old release's histories, migrating its
 * warehouse), finishes the backfill, and runs the schedule's sync when it is triggered. The
 * warehouse then equals the simulator's ground truth and `verify` is green.
 *
 * GLACIER_PREVIOUS_RELEASE_DIR=<built tree> reuses a tree already built (development only).
 */
const STREAMS = ['evm.blocks', 'evm.transactions', 'pn.validators', 'pn.rewards'];
const SCHEDULE_ID = 'upgrade-nightly';

class Proc {
  child?: ChildProcess;
  log = '';
  constructor(readonly argv: string[], readonly env: NodeJS.ProcessEnv) {}
  start(): this {
    this.child = spawn(process.execPath, this.argv, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [this.child.stdout!, this.child.stderr!]) s.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-20_000)));
    return this;
  }
  get alive(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }
  async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * Rejects as soon as a run on the queue has a failed workflow task: what the current code does to a
 * history it cannot replay (a non-determinism error), which would otherwise leave the run waiting.
 */
async function failedTasks(client: Client, taskQueue: string, watch: { stopped: boolean }): Promise<never> {
  while (!watch.stopped) {
    await new Promise((res) => setTimeout(res, 2000));
    if (watch.stopped) break;
    for await (const run of client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'` })) {
      const events = (await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? [];
      const failed = events.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes;
      if (failed) throw new Error(`${run.workflowId}: workflow task failed on the current worker: ${failed.failure?.message?.split('\n')[0]}`);
    }
  }
  return new Promise<never>(() => undefined);
}

describe('upgrade in flight: previous release -> current code', () => {
  let release: BuiltRelease | undefined;
  let sim: Simulator;
  let server: DevServer;
  let work: string;
  let config: ResolvedConfig;
  let configPath: string;
  let client: Client;
  let connection: Connection;
  let env: NodeJS.ProcessEnv;
  const workers: Proc[] = [];
  const timings: Record<string, number> = {};
  const t0 = Date.now();
  const lap = (name: string) => (timings[name] = Math.round((Date.now() - t0) / 100) / 10);

  beforeAll(async () => {
    const reuse = process.env.GLACIER_PREVIOUS_RELEASE_DIR;
    release = reuse
      ? { ...(await import('./previousRelease.ts')).previousRelease(), dir: reuse, bin: join(reuse, 'bin', 'glacier-etl.js'), buildSeconds: 0, remove: () => undefined }
      : buildPreviousRelease();
    lap('previous release built');
    work = mkdtempSync(join(tmpdir(), 'glacier-upgrade-'));
    sim = await startSimulator({ seed: 11, size: 'tiny', clock: () => FIXED_NOW });
    const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: join(work, 'data'), addressesPerChain: 2 });
    base.streams = STREAMS;
    base.networks[0].rewardsForDiscoveredValidators = true;
    // Small pages and one page per batch: many checkpoints per walk, so the kill lands mid-walk.
    base.api.pageSize = 10;
    base.partitionConcurrency = 2;
    base.temporal.taskQueue = `upgrade-${process.pid}`;
    configPath = join(work, 'config.yaml');
    // The file a 0.1.0 user wrote: without the keys later releases added (0.1.0 refuses unknown keys).
    const { schemaContracts: _contracts, lake: _lake, warehouse: { runRecordsDays: _days, ...warehouse0 }, ...released } = base as typeof base & { schemaContracts?: unknown; lake?: unknown; warehouse: { runRecordsDays?: unknown } };
    writeFileSync(configPath, toYaml({ ...released, warehouse: warehouse0 }));
    config = resolveConfig(base, {});
    server = await new DevServer({ dataDir: join(work, 'data', 'temporal'), headless: true }).start();
    connection = await Connection.connect({ address: server.address });
    client = new Client({ connection });
    env = { ...process.env, CI: 'true', TEMPORAL_ADDRESS: server.address, LOG_LEVEL: 'warn' };
  }, 600_000);

  afterAll(async () => {
    for (const w of workers) await w.signal('SIGKILL');
    lap('workers gone');
    await connection?.close();
    await server?.stop();
    lap('dev server stopped');
    await sim?.close();
    lap('simulator closed');
    if (work) rmSync(work, { recursive: true, force: true });
    release?.remove();
    lap('worktree removed');
    process.stderr.write(`upgrade in flight: ${JSON.stringify({ release: release?.version, buildSeconds: release?.buildSeconds, secondsSinceStart: timings })}\n`);
  });

  it('the previous release starts a backfill and a schedule, its worker dies mid-walk, the current worker finishes both; warehouse = ground truth, verify green', async () => {
    const r = release!;
    const old = new Proc([r.bin, '-c', configPath, 'worker'], env).start();
    workers.push(old);
    const started = await runNode([r.bin, '-c', configPath, 'backfill', '--detach', '--max-pages', '1', '--activity-budget', '0', '--no-export'], { env, timeoutMs: 120_000 });
    expect(started.code, started.stderr).toBe(0);
    const pipelineId = pipelineWorkflowId('backfill', config.temporal.taskQueue);
    expect(started.stdout).toContain(pipelineId);
    const created = await runNode([r.bin, '-c', configPath, 'schedule', 'create', '--cron', '0 3 1 1 *', '--id', SCHEDULE_ID, '--max-pages', '2'], { env, timeoutMs: 120_000 });
    expect(created.code, created.stderr).toBe(0);
    lap('old release started backfill and schedule');

    // Kill the old worker once partitions have committed batches and before the backfill ends.
    const pipeline = client.workflow.getHandle(pipelineId);
    const midWalk: { partition: string; pages: number }[] = [];
    for (let i = 0; i < 1200 && midWalk.length === 0; i++) {
      const status = await pipeline.query<PipelineStatus>('status').catch(() => undefined);
      if (status?.phase === 'done') throw new Error('the old worker finished the backfill before it could be killed: make the world or the pages smaller');
      for (const p of status?.partitions.filter((x) => x.state === 'running') ?? []) {
        const progress = await client.workflow.getHandle(p.workflowId).query<PartitionWorkflowResult>('progress').catch(() => undefined);
        if (progress && !progress.done && progress.pages >= 2) midWalk.push({ partition: p.partitionId, pages: progress.pages });
      }
      if (midWalk.length === 0) await new Promise((res) => setTimeout(res, 100));
    }
    expect(midWalk.length, old.log.slice(-2000)).toBeGreaterThan(0);
    await old.signal('SIGKILL');
    lap('old worker killed mid-walk');
    // What the old release left is a warehouse of its own schema (0.1.0 recorded none: version 1).
    const left = await DuckDBInstance.create(warehousePath(config.dataDir), { access_mode: 'READ_ONLY' });
    const leftConnection = await left.connect();
    try {
      expect(await readSchemaVersion(leftConnection)).toBe(releaseSchemaVersion(release!.dir));
    } finally {
      leftConnection.closeSync();
      left.closeSync();
    }

    // The current code's worker on the same Temporal state and data directory.
    const current = new Proc(cliArgv(['-c', configPath, 'worker']), env).start();
    workers.push(current);
    const watch = { stopped: false };
    const backfill = (await Promise.race([pipeline.result(), failedTasks(client, config.temporal.taskQueue, watch)]).finally(() => (watch.stopped = true))) as PipelineStatus;
    lap('backfill finished on the current worker');
    expect(backfill.partitions.filter((p) => p.state !== 'done'), current.log.slice(-3000)).toEqual([]);
    expect(backfill.partitions.some((p) => p.stream === 'pn.rewards')).toBe(true);
    // Both workers completed tasks of this one pipeline run.
    const identities = new Set((await pipeline.fetchHistory()).events?.flatMap((e) => (e.workflowTaskCompletedEventAttributes?.identity ? [e.workflowTaskCompletedEventAttributes.identity] : [])));
    expect(identities.size).toBeGreaterThanOrEqual(2);

    // The schedule the old release created runs its sync on the current worker.
    sim.advance(4);
    const trigger = await runCli(['-c', configPath, 'schedule', 'trigger', SCHEDULE_ID], { env, timeoutMs: 120_000 });
    expect(trigger.code, trigger.stderr).toBe(0);
    const schedule = client.schedule.getHandle(SCHEDULE_ID);
    let action: { workflowId: string; firstExecutionRunId: string } | undefined;
    for (let i = 0; i < 600 && !action; i++) {
      action = (await schedule.describe()).info.recentActions.at(-1)?.action.workflow;
      if (!action) await new Promise((res) => setTimeout(res, 100));
    }
    expect(action).toBeDefined();
    const sync = (await client.workflow.getHandle(action!.workflowId, action!.firstExecutionRunId).result()) as PipelineStatus;
    lap('scheduled sync finished');
    expect(sync.mode).toBe('sync');
    expect(sync.partitions.filter((p) => p.state !== 'done')).toEqual([]);

    const verify = await runCli(['-c', configPath, 'verify'], { env, timeoutMs: 180_000 });
    expect(verify.code, `${verify.stdout}\n${verify.stderr}`).toBe(0);
    expect(verify.stdout).toContain('verify: no problems');
    const status = await runCli(['-c', configPath, 'status'], { env, timeoutMs: 120_000 });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`warehouse schema version ${WAREHOUSE_SCHEMA_VERSION} (worker writes ${WAREHOUSE_SCHEMA_VERSION}), lake: DuckLake (catalog sqlite:${join(config.dataDir, 'lake', 'catalog.sqlite')})`);
    lap('verify and status');

    // The worker releases the file; the warehouse must equal the world at the sync's snapshot.
    await current.signal('SIGTERM');
    const runtime = await buildRuntime(config, createLogger({ level: 'error' }), {});
    try {
      const partitions = [...(await runtime.deps.sync!.planPartitions({})), ...(await runtime.deps.sync!.planPartitions({ discovered: true }))];
      const comparison = await compareWithTruth(sim, runtime.warehouse, partitions, { snapshotAt: sync.snapshotAt });
      expect(comparison.filter((c) => c.lost || c.duplicated)).toEqual([]);
      const expected = Object.fromEntries(comparison.map((c) => [c.table, c.expected]));
      for (const table of ['evm_blocks', 'evm_transactions']) expect(expected[table]).toBeGreaterThan(0);
      expect(await runtime.warehouse.schemaVersion()).toBe(WAREHOUSE_SCHEMA_VERSION);
    } finally {
      await runtime.close();
    }
    lap('compared with ground truth');
  }, 600_000);
});
