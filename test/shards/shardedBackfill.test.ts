import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { DuckDBInstance } from '@duckdb/node-api';
import { configForWorld, DEMO_RATE_LIMITS } from '../../cli/demoConfig.ts';
import { startSimulator, type Simulator } from '../../tools/simulator/index.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { resolveConfig, type ResolvedConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';
import { lakeOf, shardWarehousePath } from '../../worker/paths.ts';
import { attachLake } from '../../activities/lake/lake.ts';
import { placementGroup } from '../../common/shards.ts';
import { pipelineStatusQuery, pipelineWorkflow, type PipelineStatus } from '../../workflows/pipeline.ts';
import { partitionProgressQuery } from '../../workflows/partition.ts';
import { compareWithTruth, truthClient, type TableComparison } from '../helpers/truthTables.ts';
import { openShardUnion } from '../helpers/shardUnion.ts';
import { runCli } from '../helpers/runCli.ts';
import { FIXED_NOW } from '../helpers/pipelineHarness.ts';
import { WorkerProcess } from '../reliability/workerProcess.ts';

/**
 * Issue 17 on real parts: three `glacier-etl worker --shard X` processes on the test run's Temporal
 * dev server share one backfill of a small simulated world; one of them is SIGKILLed while it holds
 * running partitions and started again. The shards' union must equal ground truth (nothing lost,
 * nothing stored twice), each placement group must live on one shard, the lake must hold the same
 * rows under per-shard file names, and `verify` over all shards must pass. Then a sync starts while
 * another shard is down: the others' partitions finish, its own wait for it and run on it.
 */
const SHARDS = ['a', 'b', 'c'];

describe('sharded backfill: three shard worker processes, one SIGKILLed mid-run', () => {
  let sim: Simulator;
  let dir: string;
  let config: ResolvedConfig;
  let configPath: string;
  let connection: Connection;
  let client: Client;
  const workers = new Map<string, WorkerProcess>();
  const temporalAddress = inject('temporalAddress');

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11, size: 'tiny', clock: () => FIXED_NOW, rateLimits: DEMO_RATE_LIMITS });
    dir = mkdtempSync(join(tmpdir(), 'glacier-shards-'));
    const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: join(dir, 'data'), addressesPerChain: 2 });
    // Small pages: many batches per partition, so the kill lands in the middle of walks.
    base.api.pageSize = 20;
    base.temporal.taskQueue = `shards-${process.pid}-${Date.now()}`;
    base.shards = SHARDS;
    configPath = join(dir, 'config.yaml');
    writeFileSync(configPath, toYaml(base));
    config = resolveConfig(base, {});
    for (const shard of SHARDS) {
      const worker = new WorkerProcess({ TEMPORAL_ADDRESS: temporalAddress, LOG_LEVEL: 'warn' }, configPath, ['--shard', shard]);
      worker.start();
      workers.set(shard, worker);
    }
    connection = await Connection.connect({ address: temporalAddress });
    client = new Client({ connection });
  });

  afterAll(async () => {
    await Promise.all([...workers.values()].map((w) => w.stop()));
    await connection?.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('spreads the partitions over the shards, keeps the others going while one is down (mid-run or at the start), and the union equals ground truth', async () => {
    const workflowId = `shards-backfill-${config.temporal.taskQueue}`;
    // One batch per activity call (activityBudgetMs 0): the partitions' progress queries then move at
    // every batch, so the test can catch a shard with committed batches of an unfinished walk. (With
    // the default budget one call commits for up to 10 s and this small world's walks finish in one.)
    const handle = await client.workflow.start(pipelineWorkflow, {
      taskQueue: config.temporal.taskQueue,
      workflowId,
      args: [{ mode: 'backfill', streams: config.streams, partitionConcurrency: 2, maxPagesPerBatch: 2, activityBudgetMs: 0, exportParquet: true, shards: SHARDS }],
    });

    // Wait until some shard has a walk in progress and unfinished work left, then SIGKILL it.
    let victim: string | undefined;
    let atKill: PipelineStatus | undefined;
    for (let i = 0; i < 600 && !victim; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const status = await handle.query(pipelineStatusQuery).catch(() => undefined);
      if (!status || status.phase !== 'syncing') continue;
      const running = status.partitions.filter((p) => p.state === 'running' && p.shard);
      const busiest = SHARDS.map((s) => ({ s, left: status.partitions.filter((p) => p.shard === s && p.state !== 'done').length }))
        .filter(({ s, left }) => left >= 2 && running.some((p) => p.shard === s))
        .sort((x, y) => y.left - x.left)[0];
      if (!busiest || !status.partitions.some((p) => p.state === 'done')) continue;
      // ...and has committed batches of a walk it has not finished (the restart resumes from that checkpoint).
      const progress = await Promise.all(
        running.filter((p) => p.shard === busiest.s).map((p) => client.workflow.getHandle(p.workflowId).query(partitionProgressQuery).catch(() => undefined)),
      );
      if (progress.some((p) => p && p.pages > 0 && !p.done)) {
        victim = busiest.s;
        atKill = status;
      }
    }
    if (!victim) throw new Error('no shard was ever caught mid-run');
    await workers.get(victim)!.kill();
    const killedAt = Date.now();
    const leftOnVictim = atKill!.partitions.filter((p) => p.shard === victim && p.state !== 'done').map((p) => p.partitionId);
    console.log(`killed shard ${victim} with ${leftOnVictim.length} partitions unfinished`);

    // While it is down, the other shards go on: partitions of theirs finish, none of the victim's do.
    const doneBefore = new Set(atKill!.partitions.filter((p) => p.state === 'done').map((p) => p.partitionId));
    await new Promise((r) => setTimeout(r, 5000));
    const during = await handle.query(pipelineStatusQuery);
    const finishedDuring = during.partitions.filter((p) => p.state === 'done' && !doneBefore.has(p.partitionId));
    console.log(`while ${victim} was down (${Math.round((Date.now() - killedAt) / 1000)} s): ${finishedDuring.length} partitions of other shards finished`);
    expect(finishedDuring.every((p) => p.shard !== victim)).toBe(true);
    workers.get(victim)!.start();

    const result = await handle.result();
    const notDone = result.partitions.filter((p) => p.state !== 'done');
    expect(notDone, JSON.stringify(notDone)).toEqual([]);
    expect(result.exported?.files ?? 0).toBeGreaterThan(0);

    // Every shard got work; a placement group never straddles two shards; the victim's partitions finished on it.
    const byShard = new Map(SHARDS.map((s) => [s, result.partitions.filter((p) => p.shard === s)]));
    for (const [shard, list] of byShard) expect(list.length, `shard ${shard}`).toBeGreaterThan(0);
    const groupShard = new Map<string, Set<string>>();
    for (const p of result.partitions) groupShard.set(placementGroup(p.partitionId, p.stream), (groupShard.get(placementGroup(p.partitionId, p.stream)) ?? new Set()).add(p.shard!));
    for (const [group, shards] of groupShard) expect([...shards], group).toHaveLength(1);
    for (const id of leftOnVictim) expect(result.partitions.find((p) => p.partitionId === id)?.shard).toBe(victim);

    // verify over all shards, through the CLI (a client of the same cluster), while the workers run.
    const env = { TEMPORAL_ADDRESS: temporalAddress, LOG_LEVEL: 'warn', GLACIER_SHARD: '' };
    const verify = await runCli(['--config', configPath, 'verify'], { env, timeoutMs: 120_000 });
    console.log(verify.stdout);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    for (const shard of SHARDS) expect(verify.stdout).toContain(`[shard ${shard}] partitions: every walk finished`);
    expect(verify.stdout).toMatch(/ok +partitions: every configured partition synced \(all shards\)/);
    expect(verify.stdout).toMatch(/ok +placement groups: each on one shard/);
    const status = await runCli(['--config', configPath, 'status', '--json'], { env, timeoutMs: 120_000 });
    expect(status.code, status.stderr).toBe(0);
    const listed = (JSON.parse(status.stdout) as { partitions: { partition: string; shard: string }[] }).partitions;
    expect(new Set(listed.map((p) => p.partition)).size).toBe(listed.length);
    expect(listed.length).toBe(result.partitions.length);
    const sql = await runCli(['--config', configPath, 'sql', '--json', 'SELECT count(*) AS n FROM evm_transactions'], { env, timeoutMs: 60_000 });
    expect(sql.code, sql.stderr).toBe(0);
    const report = await runCli(['--config', configPath, 'report', '--shard', 'a', '--out', join(dir, 'report-a.html')], { env, timeoutMs: 120_000 });
    expect(report.code, report.stderr).toBe(0);

    // A shard that is down when a run starts: the groups the others hold go on at once; its own
    // cannot be told from new ones, so they wait (no shard yet) until it answers, then run on it.
    const down = SHARDS.find((s) => s !== victim)!;
    const downIds = result.partitions.filter((p) => p.shard === down).map((p) => p.partitionId);
    await workers.get(down)!.kill();
    const syncHandle = await client.workflow.start(pipelineWorkflow, {
      taskQueue: config.temporal.taskQueue,
      workflowId: `shards-sync-${config.temporal.taskQueue}`,
      args: [{ mode: 'sync', streams: config.streams, partitionConcurrency: 2, maxPagesPerBatch: 2, exportParquet: true, shards: SHARDS }],
    });
    let whileDown: PipelineStatus | undefined;
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const s = await syncHandle.query(pipelineStatusQuery).catch(() => undefined);
      const others = s?.partitions.filter((p) => !downIds.includes(p.partitionId)) ?? [];
      if (s && s.shards?.find((v) => v.shard === down)?.state === 'no answer' && others.length > 0 && others.every((p) => p.state === 'done')) {
        whileDown = s;
        break;
      }
    }
    expect(whileDown, `the other shards' partitions never finished while ${down} was down`).toBeDefined();
    const waiting = whileDown!.partitions.filter((p) => downIds.includes(p.partitionId));
    expect(waiting.length).toBe(downIds.length);
    for (const p of waiting) expect([p.state, p.shard]).toEqual(['pending', undefined]);
    workers.get(down)!.start();
    const synced = await syncHandle.result();
    expect(synced.partitions.filter((p) => p.state !== 'done')).toEqual([]);
    for (const id of downIds) expect(synced.partitions.find((p) => p.partitionId === id)?.shard).toBe(down);
    console.log(`sync with shard ${down} down at the start: ${synced.partitions.length - downIds.length} partitions of other shards finished first, its ${downIds.length} after it returned`);

    await Promise.all([...workers.values()].map((w) => w.stop()));

    // The union of the shards' files against ground truth, table by table.
    const files = Object.fromEntries(SHARDS.map((s) => [s, shardWarehousePath(config.dataDir, s)]));
    const union = await openShardUnion(files);
    // Planning reads no warehouse here (no discovered partitions, no cost record): an empty one will do.
    const planner = await openWarehouse(':memory:');
    let tables: TableComparison[];
    try {
      const core = createSyncCore({ client: truthClient(sim), warehouse: planner, config, logger: createLogger({ level: 'silent' }) });
      const partitions = await core.planPartitions({});
      expect(partitions.length).toBe(result.partitions.length);
      tables = await compareWithTruth(sim, union, partitions, { snapshotAt: synced.snapshotAt });
      const counts = await union.counts();
      // The lake every shard exported into (one catalog, one table each): its tables hold the union.
      expect(Number(JSON.parse(sql.stdout)[0].n)).toBe(counts.get('evm_transactions'));
      const reader = await (await DuckDBInstance.create(':memory:')).connect();
      await attachLake(reader, lakeOf(config), { readOnly: true });
      for (const [table, n] of counts) {
        if (table.startsWith('_glacier_') && table !== '_glacier_snapshot_walks') continue;
        const [row] = (await reader.runAndReadAll(`SELECT count(*) AS n FROM lake."${table}"`)).getRowObjectsJS();
        expect(Number(row.n), `lake rows of ${table}`).toBe(n);
      }
      reader.closeSync();
    } finally {
      await planner.close();
      union.close();
    }
    const bad = tables.filter((t) => t.lost || t.duplicated);
    expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
    const expected = tables.reduce((n, t) => n + t.expected, 0);
    console.log(`shards: ${SHARDS.map((s) => `${s} ${byShard.get(s)!.length}`).join(', ')} partitions; ${expected} rows compared over ${tables.length} tables: 0 lost, 0 duplicated`);
    expect(expected).toBeGreaterThan(1000);
  }, 240_000);
});
