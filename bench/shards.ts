/**
 * Shards (issue 17): the same backfill with 1 shard and with 2 shards. Each shard is a real worker
 * process of the compiled CLI (`glacier-etl worker --shard sN`, its own DuckDB file and task queue),
 * all on one Temporal dev server, against one simulator in a child process. Prints items/s, CPU per
 * page of the shard workers, the CPU of the simulator and the Temporal server, and the 2/1 ratio.
 *
 *   npm run bench:shards    (builds first; knobs BENCH_BLOCKS, BENCH_PN_TXS, BENCH_PARTITIONS, BENCH_SHARDS=1,2, BENCH_ROUNDS, BENCH_WARMUP=0)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { DevServer } from '../worker/devServer.ts';
import { placementGroup, shardTaskQueue } from '../common/shards.ts';
import { pipelineWorkflow } from '../workflows/pipeline.ts';
import { statusWorkflow } from '../workflows/maintenance.ts';
import { summarize } from '../cli/runPipeline.ts';
import type { StreamName } from '../common/streamNames.ts';
import { BENCH_SIZE, UNLIMITED, benchConfig, envNumber, fmt, startBenchSimulator, tempDir, type BenchSimulator } from './benchWorld.ts';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * The world: one EVM chain and the primary network, i.e. two placement groups (a group never
 * splits across shards). Their sizes are chosen close (10,000 blocks with their transactions against
 * 2,500 primary-network transactions per chain with their UTXOs, and the vertices), so two shards
 * can split the work about evenly; the table prints each group's share, which bounds the gain.
 */
const SHARD_STREAMS: StreamName[] = process.env.BENCH_STREAMS ? (process.env.BENCH_STREAMS.split(',') as StreamName[]) : ['evm.blocks', 'evm.transactions', 'pn.transactions', 'pn.vertices'];
const SHARD_SIZE = { ...BENCH_SIZE, pnTxsPerChain: envNumber('BENCH_PN_TXS', 2_500) };

/** CPU seconds (user + system) a live process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The Temporal dev server this process started (a child named temporal). */
function childPid(name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm === name) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

export interface ShardRun {
  shards: number;
  items: number;
  pages: number;
  seconds: number;
  workerCpu: number;
  simulatorCpu: number;
  temporalCpu: number;
  perShard: Record<string, number>;
  /** CPU seconds each shard worker used during the run. */
  cpuPerShard: Record<string, number>;
  /** Items per placement group (a group never splits, so the largest bounds what more shards can gain). */
  perGroup: Record<string, number>;
}

/** Each shard's worker is ready once a round trip through its own queue (workflow + activity: the status of its warehouse) returns. */
async function waitUntilServing(client: Client, queues: string[]): Promise<void> {
  await Promise.all(queues.map((taskQueue) => client.workflow.execute(statusWorkflow, { taskQueue, workflowId: `bench-ready-${taskQueue}-${Date.now()}`, args: [] })));
}

async function runShards(sim: BenchSimulator, count: number, partitions: number): Promise<ShardRun> {
  const tmp = tempDir(`shards-${count}`);
  const server = await new DevServer({ dataDir: join(tmp.dir, 'temporal'), headless: true }).start();
  const shards = Array.from({ length: count }, (_, i) => `s${i + 1}`);
  const config = benchConfig(sim, join(tmp.dir, 'data'), { partitionConcurrency: partitions, streams: SHARD_STREAMS, firstChainOnly: true });
  const file = join(tmp.dir, 'config.yaml');
  const { temporalAddress: _t, apiKeyCount: _k, shard: _s, ...plain } = config;
  writeFileSync(file, toYaml({ ...plain, shards, temporal: { ...config.temporal, taskQueue: `bench-shards-${count}` } }));
  const bin = fileURLToPath(new URL('../bin/glacier-etl.js', import.meta.url));
  const workers: ChildProcess[] = shards.map((shard) =>
    spawn(process.execPath, [bin, '--config', file, 'worker', '--shard', shard], { env: { ...process.env, TEMPORAL_ADDRESS: server.address, LOG_LEVEL: 'warn', GLACIER_API_KEY: '' }, stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  try {
    await waitUntilServing(client, shards.map((s) => shardTaskQueue(`bench-shards-${count}`, s)));
    const temporalPid = childPid('temporal');
    const cpu0 = workers.map((w) => cpuSeconds(w.pid!));
    const sim0 = cpuSeconds(sim.child.pid!);
    const tmp0 = temporalPid ? cpuSeconds(temporalPid) : 0;
    const started = performance.now();
    const result = await client.workflow.execute(pipelineWorkflow, {
      taskQueue: `bench-shards-${count}`,
      workflowId: `bench-shards-${count}-${Date.now()}`,
      args: [{ mode: 'backfill', streams: config.streams, partitionConcurrency: partitions, maxPagesPerBatch: envNumber('BENCH_PAGES_PER_BATCH', 20), exportParquet: false, shards }],
    });
    const seconds = (performance.now() - started) / 1000;
    const cpuPerShard = Object.fromEntries(shards.map((s, i) => [s, cpuSeconds(workers[i].pid!) - cpu0[i]]));
    const workerCpu = Object.values(cpuPerShard).reduce((sum, c) => sum + c, 0);
    const summary = summarize(result);
    if (summary.failed) throw new Error(`${summary.failed} partitions failed: ${result.partitions.find((p) => p.state === 'failed')?.error}`);
    const perShard = Object.fromEntries(shards.map((s) => [s, result.partitions.filter((p) => p.shard === s).reduce((n, p) => n + p.rows, 0)]));
    const perGroup: Record<string, number> = {};
    for (const p of result.partitions) perGroup[placementGroup(p.partitionId, p.stream)] = (perGroup[placementGroup(p.partitionId, p.stream)] ?? 0) + p.rows;
    return {
      perGroup,
      cpuPerShard,
      shards: count,
      items: summary.rows,
      pages: summary.pages,
      seconds,
      workerCpu,
      simulatorCpu: cpuSeconds(sim.child.pid!) - sim0,
      temporalCpu: temporalPid ? cpuSeconds(temporalPid) - tmp0 : Number.NaN,
      perShard,
    };
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.exitCode === null ? new Promise((r) => w.once('exit', r)) : undefined)));
    await connection.close();
    await server.stop();
    tmp.remove();
  }
}

export function shardTable(runs: ShardRun[]): string {
  const lines = [
    '| shards | items | wall s | items/s | shard workers CPU s | CPU ms per page | simulator CPU s | Temporal CPU s | items (CPU s) per shard |',
    '|--------|-------|--------|---------|---------------------|-----------------|-----------------|----------------|-------------------------|',
  ];
  for (const r of runs) {
    lines.push(
      `| ${r.shards} | ${fmt(r.items)} | ${fmt(r.seconds, 1)} | ${fmt(r.items / r.seconds)} | ${fmt(r.workerCpu, 1)} | ${fmt((r.workerCpu * 1000) / r.pages, 1)} | ${fmt(r.simulatorCpu, 1)} | ${fmt(r.temporalCpu, 1)} | ${Object.entries(r.perShard).map(([s, n]) => `${s} ${fmt(n)} (${fmt(r.cpuPerShard[s], 1)})`).join(', ')} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = (process.env.BENCH_SHARDS ?? '1,2').split(',').map(Number);
  const partitions = envNumber('BENCH_PARTITIONS', 6);
  const sim = await startBenchSimulator({ seed: 7, size: SHARD_SIZE, rateLimits: UNLIMITED });
  const runs: ShardRun[] = [];
  try {
    // A warm-up walk (BENCH_WARMUP=0 skips it), so the first measured run does not pay for the simulator's lazily built world.
    if (process.env.BENCH_WARMUP !== '0') await runShards(sim, 1, partitions);
    // Rounds interleave the shard counts (1, 2, 1, 2, …): on a shared machine, compare within a round and take medians.
    for (let round = 0; round < envNumber('BENCH_ROUNDS', 1); round++) for (const n of counts) runs.push(await runShards(sim, n, partitions));
  } finally {
    await sim.close();
  }
  process.stdout.write(`bench:shards: ${partitions} partitions in flight per shard, ${SHARD_STREAMS.join(', ')}; ${SHARD_SIZE.evmBlocks} blocks, ${SHARD_SIZE.pnTxsPerChain} primary-network transactions per chain\n${shardTable(runs)}\n`);
  const groups = Object.entries(runs[0]?.perGroup ?? {}).sort(([, a], [, b]) => b - a);
  const total = groups.reduce((n, [, v]) => n + v, 0);
  process.stdout.write(`placement groups (items): ${groups.map(([g, n]) => `${g} ${fmt(n)} (${fmt((100 * n) / total)}%)`).join(', ')}\n`);
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
  const of = (n: number) => runs.filter((r) => r.shards === n);
  for (const n of counts) {
    const rs = of(n);
    process.stdout.write(`${n} shard(s), median of ${rs.length}: ${fmt(median(rs.map((r) => r.items / r.seconds)))} items/s, ${fmt(median(rs.map((r) => (r.workerCpu * 1000) / r.pages)), 1)} shard CPU ms per page\n`);
  }
  if (of(1).length && of(2).length) {
    const ratios = of(2).map((r, i) => (of(1)[i] ? r.items / r.seconds / (of(1)[i].items / of(1)[i].seconds) : Number.NaN)).filter(Number.isFinite);
    process.stdout.write(
      `2 shards / 1 shard: items/s ${fmt(median(of(2).map((r) => r.items / r.seconds)) / median(of(1).map((r) => r.items / r.seconds)), 2)} (medians; per round ${ratios.map((x) => fmt(x, 2)).join(', ')}), shard CPU per page ${fmt(median(of(2).map((r) => r.workerCpu / r.pages)) / median(of(1).map((r) => r.workerCpu / r.pages)), 2)}\n`,
    );
  }
}
