/**
 * `npm run bench:peer`: glacier-etl against the peer a data engineer would pick instead (dlt's REST
 * API source into DuckDB, with dlt's defaults and with tuned settings), on the same simulator
 * world, the same four lists, in one run. Prints items/s, CPU seconds per 1,000 items and peak RSS
 * side by side, and checks that every runner loaded the same number of items per list.
 *
 *   npm run bench:peer                       the issue's world: 10,000 EVM blocks, 5,000 P-chain
 *                                            transactions, 1,000 validators (about 50k items)
 *   npm run bench:peer -- --scale 0.2        a fifth of it, for a quick look
 *   npm run bench:peer -- --rounds 3         runners interleaved per round; the median counts
 *   npm run bench:peer -- --only glacier-etl,dlt-tuned
 *
 * Every runner is a child process (`/usr/bin/time` around it): CPU is user + system of the whole
 * tree (time reports the reaped children too: Temporal's dev server, dlt's normalize workers),
 * peak RSS is the largest sum of resident memory over the tree, sampled every 100 ms from /proc.
 * glacier-etl-service is the same load on a worker and dev server already running (a deployment);
 * its CPU is the client's plus the worker's and the server's over the load, from /proc.
 * The simulator runs in its own process, counts for nobody and is warmed up by one walk of every
 * list before the first runner. The peer's Python venv is created
 * on first use under ~/.cache/glacier-etl/peer-venv (dlt pinned below, from PyPI).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { fmt, processCpuSeconds, readStatusKb, startBenchSimulator, tempDir, UNLIMITED, type BenchSimulator } from '../benchWorld.ts';
import { measure, treeSample, type Measured } from '../processTree.ts';
import { bareWalk, COUNT_SQL, PEER_SEED, peerLists, peerSize, writePeerConfig, type ListJob } from './world.ts';
import { DevServer, startDevArgs } from '../../worker/devServer.ts';
import { freePort } from '../../worker/freePort.ts';
import { temporalBinary } from '../../worker/temporalBinary.ts';

const DLT_REQUIREMENT = 'dlt[duckdb,parquet]==1.31.0';
const RUNNERS = ['glacier-etl', 'glacier-etl-service', 'dlt-defaults', 'dlt-tuned'] as const;
type RunnerName = (typeof RUNNERS)[number];

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    'no-floor': { type: 'boolean', default: false },
  },
});
const scale = Number(values.scale);
const rounds = Number(values.rounds);
if (!(scale > 0) || !Number.isInteger(rounds) || rounds < 1) {
  console.error('bench:peer: --scale must be a positive number and --rounds a positive integer');
  process.exit(2);
}
const only = (values.only?.split(',') ?? [...RUNNERS]) as RunnerName[];
for (const name of only) {
  if (!RUNNERS.includes(name)) {
    console.error(`bench:peer: unknown runner "${name}" (runners: ${RUNNERS.join(', ')})`);
    process.exit(2);
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const started = performance.now();
const log = (line: string) => console.log(`[${fmt((performance.now() - started) / 1000, 0).padStart(4)} s] ${line}`);

/** The venv with the pinned dlt; created and filled once, reused while the requirement is unchanged. */
function ensureVenv(): string {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glacier-etl', 'peer-venv');
  const python = join(dir, 'bin', 'python');
  const marker = join(dir, '.glacier-requirement');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === DLT_REQUIREMENT) return python;
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  };
  if (!existsSync(python)) {
    log(`creating the peer's Python venv in ${dir}`);
    run('python3', ['-m', 'venv', dir]);
  }
  log(`installing ${DLT_REQUIREMENT} into it (first run only)`);
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', DLT_REQUIREMENT]);
  writeFileSync(marker, DLT_REQUIREMENT);
  return python;
}

const writeGlacierConfig = writePeerConfig;

const GLACIER_BIN = join(ROOT, 'bin', 'glacier-etl.js');
const GLACIER_ENV = { LOG_LEVEL: 'warn', TEMPORAL_ADDRESS: '', GLACIER_DATA_DIR: '', GLACIER_API_KEY: '' };

/** Items per list in a glacier-etl warehouse no process holds. */
function glacierCounts(configFile: string): Record<string, number> {
  const counts = spawnSync(process.execPath, [GLACIER_BIN, '--config', configFile, 'sql', '--json', COUNT_SQL], { encoding: 'utf8', env: { ...process.env, ...GLACIER_ENV } });
  if (counts.status !== 0) throw new Error(`counting glacier-etl's rows failed: ${counts.stderr}`);
  const [row] = JSON.parse(counts.stdout) as Record<string, number | string>[];
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

/** `glacier-etl backfill --no-export` of the four lists on a simulator (compiled CLI, embedded dev server), then its row counts. */
async function runGlacier(on: BenchSimulator, dir: string): Promise<{ measured: Measured; items: Record<string, number> }> {
  const configFile = writeGlacierConfig(on, dir);
  // BENCH_PEER_CPU_PROF=<dir> writes a V8 CPU profile of the glacier-etl process there.
  const prof = process.env.BENCH_PEER_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PEER_CPU_PROF] : [];
  const measured = await measure(process.execPath, [...prof, GLACIER_BIN, '--config', configFile, 'backfill', '--no-export', '--json'], GLACIER_ENV);
  return { measured, items: glacierCounts(configFile) };
}

/**
 * glacier-etl as a deployed service runs it: a dev server and a `glacier-etl worker` already up
 * (started, and left to settle, before the clock starts), and `glacier-etl backfill --no-export` as a
 * client of that cluster (TEMPORAL_ADDRESS). Counted: the client's wall time, and the CPU of the
 * client, the worker and the dev server over it (their /proc deltas); peak RSS is the client's peak
 * plus the worker's and the server's. What a scheduled load costs where the service already runs.
 */
async function runGlacierService(on: BenchSimulator, dir: string): Promise<{ measured: Measured; items: Record<string, number> }> {
  const configFile = writeGlacierConfig(on, dir);
  const server = await new DevServer({ dataDir: join(dir, 'temporal'), headless: true }).start();
  try {
    const serverPid = [...treeSample(process.pid).temporalCpu.keys()][0];
    const env = { ...process.env, ...GLACIER_ENV, LOG_LEVEL: 'info', TEMPORAL_ADDRESS: server.address };
    const worker = spawn(process.execPath, [GLACIER_BIN, '--config', configFile, 'worker'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: worker.stderr! }).on('line', (line) => {
          if (line.includes('"msg":"worker running"')) resolve();
        });
        void exited.then(() => reject(new Error('glacier-etl worker exited during start-up')));
      });
      await new Promise((r) => setTimeout(r, 1000)); // let the worker's pollers settle
      // The service's two processes, read before and after the load (a pid of 0 reads as nothing).
      const pids = [worker.pid!, serverPid ?? 0];
      const [worker0, server0] = pids.map(processCpuSeconds);
      const client = await measure(process.execPath, [GLACIER_BIN, '--config', configFile, 'backfill', '--no-export', '--json'], { ...GLACIER_ENV, TEMPORAL_ADDRESS: server.address });
      const [worker1, server1] = pids.map(processCpuSeconds);
      const serviceRssMb = pids.reduce((mb, pid) => mb + (pid ? readStatusKb(pid, 'VmHWM') / 1024 : 0), 0);
      const serviceCpu = worker1 - worker0 + (server1 - server0);
      const measured: Measured = { ...client, cpuSeconds: client.cpuSeconds + serviceCpu, temporalCpuSeconds: server1 - server0, peakRssMb: client.peakRssMb + serviceRssMb };
      worker.kill('SIGTERM');
      await exited;
      return { measured, items: glacierCounts(configFile) };
    } finally {
      if (worker.exitCode === null) {
        worker.kill('SIGKILL');
        await exited;
      }
    }
  } finally {
    await server.kill();
  }
}

/** The pinned dev server alone: started as the CLI starts it, stopped (SIGTERM) as soon as its port answers. */
async function devServerAlone(dir: string): Promise<Measured> {
  const binary = await temporalBinary();
  const port = await freePort();
  const args = startDevArgs({ dbFile: join(dir, 'temporal.sqlite'), port }).map((a) => `'${a}'`).join(' ');
  const script = `'${binary}' ${args} >/dev/null 2>&1 & pid=$!
for i in $(seq 1 600); do (echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.05; done
kill -TERM $pid; wait $pid || true`;
  return measure('bash', ['-c', script]);
}

/**
 * What the CPU and wall budgets of "3x the tuned dlt's items/s at a third of its CPU" leave, against
 * glacier-etl's floor measured in the same run: the bare fetch + JSON.parse of the same pages (no
 * pipeline can do less), the pinned dev server alone, and glacier-etl on 2% of the world (its fixed
 * cost per run: dev server, worker, warehouse, workflows).
 */
async function printFloor(lists: ListJob[], items: number, tuned: { seconds: number; cpuPer1000: number }, glacierRun: Measured): Promise<void> {
  const bare = await bareWalk(sim.baseUrl, lists);
  const dir = join(work.dir, 'floor');
  mkdirSync(dir, { recursive: true });
  const server = await devServerAlone(dir);
  const small = await startBenchSimulator({ seed: PEER_SEED, size: sizeAt(FLOOR_SCALE * scale), rateLimits: UNLIMITED });
  let fixed: { measured: Measured; items: Record<string, number> };
  try {
    await bareWalk(small.baseUrl, lists); // the small world's simulator warm-up
    fixed = await runGlacier(small, join(dir, 'small'));
  } finally {
    await small.close();
  }
  const smallItems = Object.values(fixed.items).reduce((a, b) => a + b, 0);
  const budgetCpu = (tuned.cpuPer1000 * items) / 1000 / 3;
  const budgetWall = tuned.seconds / 3;
  const line = (what: string, m: { seconds: number; cpuSeconds: number }) => console.log(`  ${what.padEnd(66)} ${fmt(m.cpuSeconds, 2).padStart(6)} CPU s ${fmt(m.seconds, 2).padStart(6)} s`);
  console.log(`\nfloor (same run): what 3x dlt-tuned's items/s at 1/3 of its CPU leaves, and what glacier-etl cannot go below`);
  line(`budget: 1/3 of dlt-tuned's CPU, 1/3 of its wall time`, { cpuSeconds: budgetCpu, seconds: budgetWall });
  line(`bare fetch + JSON.parse of the same ${fmt(bare.pages)} pages (all lists at once)`, bare);
  line(`pinned Temporal dev server alone: start, then stop`, server);
  console.log(`  ${'the dev server in the glacier-etl run above (start, serve the backfill, end)'.padEnd(66)} ${fmt(glacierRun.temporalCpuSeconds, 2).padStart(6)} CPU s`);
  line(`glacier-etl backfill of ${fmt(smallItems)} items (${fmt(FLOOR_SCALE * 100)}% of the world): its fixed cost`, fixed.measured);
  line(`fixed cost + bare fetch + parse`, { cpuSeconds: fixed.measured.cpuSeconds + bare.cpuSeconds, seconds: fixed.measured.seconds + bare.seconds });
  const floor = glacierRun.temporalCpuSeconds + bare.cpuSeconds;
  console.log(`  the budget is ${fmt(budgetCpu / bare.cpuSeconds, 2)}x the bare fetch + parse in CPU; the fixed cost alone is ${fmt(fixed.measured.cpuSeconds / budgetCpu, 2)}x the CPU budget and ${fmt(fixed.measured.seconds / budgetWall, 2)}x the wall budget`);
  console.log(`  the dev server's CPU in the run + the bare fetch + parse: ${fmt(floor, 2)} CPU s, leaving ${fmt(budgetCpu - floor, 2)} CPU s of the budget for the CLI process (Node, Temporal's worker, validation, columns, DuckDB), which spent ${fmt(glacierRun.cpuSeconds - glacierRun.temporalCpuSeconds, 2)}`);
}

// --- the world and the lists ---------------------------------------------------------------------
const sizeAt = peerSize;
const size = sizeAt(scale);
/** The floor's small world: the same lists at 2% of the size, so a glacier-etl run there is mostly its fixed cost. */
const FLOOR_SCALE = 0.02;
const python = only.some((r) => r.startsWith('dlt')) ? ensureVenv() : '';
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('bench:peer runs the compiled CLI: run `npm run build` first');

log(`world: ${fmt(size.evmBlocks)} EVM blocks, ${fmt(size.pnTxsPerChain)} primary-network transactions per chain, ${fmt(size.validators)} validators`);
const sim = await startBenchSimulator({ seed: PEER_SEED, size, rateLimits: UNLIMITED });
const work = tempDir('peer');
try {
  const lists: ListJob[] = peerLists(sim);
  // Warm-up walk of every list (simulator caches, JIT), so the first runner does not pay for them.
  const warm = await bareWalk(sim.baseUrl, lists);
  log(`warm-up walk: ${fmt(warm.pages)} pages in ${fmt(warm.seconds, 1)} s`);

  const jobFile = join(work.dir, 'job.json');
  writeFileSync(jobFile, JSON.stringify({ baseUrl: sim.baseUrl, pageSize: 100, lists }));

  // glacier-etl's config for the same lists: the world's mainnet EVM chains, the P-chain, no address
  // or node-id partitions; 6 partitions in flight and 6 requests, as `npm run bench` runs it.
  const runOnce = async (runner: RunnerName, round: number): Promise<{ measured: Measured; items: Record<string, number> }> => {
    const dir = join(work.dir, `${runner}-${round}`);
    mkdirSync(dir, { recursive: true });
    if (runner === 'glacier-etl') return runGlacier(sim, dir);
    if (runner === 'glacier-etl-service') return runGlacierService(sim, dir);
    const profile = runner === 'dlt-tuned' ? 'tuned' : 'defaults';
    const measured = await measure(python, [join(ROOT, 'bench', 'peers', 'dlt_peer.py'), '--job', jobFile, '--profile', profile, '--workdir', dir]);
    const report = JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as { rows: Record<string, number>; steps: Record<string, number> };
    log(`  ${runner} steps: ${Object.entries(report.steps).map(([k, v]) => `${k} ${fmt(v, 1)} s`).join(', ')}`);
    const items: Record<string, number> = {};
    for (const l of lists) items[l.list] = (items[l.list] ?? 0) + (report.rows[l.table] ?? 0);
    return { measured, items };
  };

  const results = new Map<RunnerName, { measured: Measured; items: Record<string, number> }[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const runner of only) {
      log(`round ${round}/${rounds}: ${runner}`);
      const r = await runOnce(runner, round);
      const total = Object.values(r.items).reduce((a, b) => a + b, 0);
      log(`  ${fmt(total)} items in ${fmt(r.measured.seconds, 1)} s, ${fmt(r.measured.cpuSeconds, 1)} CPU s, peak RSS ${fmt(r.measured.peakRssMb)} MB (${Object.entries(r.items).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')})`);
      results.set(runner, [...(results.get(runner) ?? []), r]);
      rmSync(join(work.dir, `${runner}-${round}`), { recursive: true, force: true });
    }
  }

  // Same items everywhere, or the comparison means nothing.
  const reference = results.get(only[0])![0].items;
  const mismatches: string[] = [];
  for (const [runner, runs] of results) {
    for (const r of runs) {
      for (const list of Object.keys(reference)) {
        if (r.items[list] !== reference[list]) mismatches.push(`${runner}: ${list} ${r.items[list]} vs ${only[0]} ${reference[list]}`);
      }
    }
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const items = Object.values(reference).reduce((a, b) => a + b, 0);
  const rows = [...results].map(([runner, runs]) => {
    const byRate = [...runs].sort((a, b) => a.measured.seconds - b.measured.seconds);
    const mid = byRate[Math.floor(byRate.length / 2)].measured;
    return {
      runner,
      rate: items / mid.seconds,
      cpuPer1000: (median(runs.map((r) => r.measured.cpuSeconds)) / items) * 1000,
      rss: Math.max(...runs.map((r) => r.measured.peakRssMb)),
      seconds: mid.seconds,
    };
  });
  const glacier = rows.find((r) => r.runner === 'glacier-etl');
  const table = [
    ['runner', `items/s${rounds > 1 ? ` (median of ${rounds})` : ''}`, 'wall s', 'CPU s per 1,000 items', 'peak RSS (tree)', ...(glacier ? ['glacier-etl items/s ÷ this', 'this CPU ÷ glacier-etl'] : [])],
    ...rows.map((r) => [
      r.runner,
      fmt(r.rate),
      fmt(r.seconds, 1),
      fmt(r.cpuPer1000, 3),
      `${fmt(r.rss)} MB`,
      ...(glacier ? [fmt(glacier.rate / r.rate, 2), fmt(r.cpuPer1000 / glacier.cpuPer1000, 2)] : []),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(`\nbench:peer: ${fmt(items)} items (${Object.entries(reference).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}), ${rounds} round(s), ${fmt((performance.now() - started) / 1000, 0)} s`);
  for (const [i, row] of table.entries()) {
    console.log(`| ${row.map((c, j) => c.padEnd(widths[j])).join(' | ')} |`);
    if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
  if (mismatches.length) {
    console.log(`\nITEM COUNTS DIFFER:\n  ${mismatches.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log(`\nitem counts: every runner loaded the same ${fmt(items)} items per list`);

  const tuned = rows.find((r) => r.runner === 'dlt-tuned');
  if (!values['no-floor'] && glacier && tuned) await printFloor(lists, items, tuned, results.get('glacier-etl')!.at(-1)!.measured);
} finally {
  await sim.close();
  work.remove();
}
