/**
 * The fixed cost of a scheduled night on a running worker: a dev server and a `glacier-etl worker`
 * already up, the small world backfilled, exported and verified once, then nights with no growth,
 * each the scheduled action (pipelineWorkflow, mode sync, export, verify --changed) started by a
 * Temporal client. Prints per night the wall time and the CPU seconds of the worker and of the dev
 * server (from /proc, over the night), the partitions the night ran, and the history events the run
 * and its child workflows recorded.
 *
 *   npm run -s build && npx tsx bench/nightsNoop.ts [nights=3]
 *   GLACIER_ROOT=<another checkout, built> npx tsx bench/nightsNoop.ts   (the same nights on that code)
 *   NIGHTS_WORKER_PROF=<dir>: V8 CPU profile of the worker over the whole run, written there.
 *   NIGHTS_DUCKDB_THREADS=<n>: the worker's warehouse.threads.
 *   NIGHTS_THREADS=1: the worker's CPU per thread over each phase.
 *   GLACIER_COMMIT_PROF=<file>: (NIGHTS_SPLIT=1) the sync phase's commits, statement time per kind and rows per table.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { stringify as toYaml } from 'yaml';
import { fmt, processCpuSeconds, readStatusKb, startBenchSimulator, tempDir, UNLIMITED, USER_HZ } from './benchWorld.ts';
import { configForWorld } from '../cli/demoConfig.ts';
import { DevServer } from '../worker/devServer.ts';

const ROOT = resolve(process.env.GLACIER_ROOT ?? fileURLToPath(new URL('../', import.meta.url)));
const BIN = join(ROOT, 'bin', 'glacier-etl.js');
const nights = Number(process.argv[2] ?? 3);
const ENV = { ...process.env, LOG_LEVEL: 'warn', GLACIER_DATA_DIR: '', GLACIER_API_KEY: '' };

function temporalPid(): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && stat.includes('(temporal)')) return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}

type CommitProfile = { commits: number; batches: number; kinds: Record<string, { calls: number; wallMs: number; cpuMs: number; offMainMs?: number }>; rows: Record<string, number> };
/** The worker's commit profile so far (GLACIER_COMMIT_PROF=<file>: activities/warehouse/commitProfile.ts), or undefined. */
function commitProfile(): CommitProfile | undefined {
  const file = process.env.GLACIER_COMMIT_PROF;
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CommitProfile;
  } catch {
    return { commits: 0, batches: 0, kinds: {}, rows: {} };
  }
}
/** What the worker's commits did over one phase: commits, statements per kind (wall and process CPU), rows per table. */
function printProfileDiff(a: CommitProfile, b: CommitProfile): void {
  console.log(`         commits ${b.commits - a.commits}, batches ${b.batches - a.batches}`);
  console.log('         statement kind      calls   wall ms  process CPU ms  off-main CPU ms');
  for (const [kind, t] of Object.entries(b.kinds)) {
    const o = a.kinds[kind] ?? { calls: 0, wallMs: 0, cpuMs: 0 };
    if (t.calls === o.calls) continue;
    console.log(`         ${kind.padEnd(18)}  ${String(t.calls - o.calls).padStart(5)}  ${String(t.wallMs - o.wallMs).padStart(8)}  ${String(t.cpuMs - o.cpuMs).padStart(14)}  ${String((t.offMainMs ?? 0) - (o.offMainMs ?? 0)).padStart(15)}`);
  }
  const rows = Object.entries(b.rows).map(([t, n]) => [t, n - (a.rows[t] ?? 0)] as const).filter(([, n]) => n > 0);
  console.log(`         rows: ${rows.map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}`);
}

/** CPU ms of each of a process's threads (Linux schedstat), by thread id, with its name. */
function threadTimes(pid: number): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(tid, { name: tid === String(pid) ? 'main' : name, ms: Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6 });
    } catch {
      // gone
    }
  }
  return out;
}
/** NIGHTS_THREADS=1: the worker's CPU over a phase per thread (the main thread, libuv's pool where DuckDB runs, V8's helpers, Temporal's core). */
function printThreads(a: Map<string, { name: string; ms: number }>, b: Map<string, { name: string; ms: number }>): void {
  const rows = [...b].map(([tid, t]) => ({ tid, name: t.name, ms: t.ms - (a.get(tid)?.ms ?? 0) })).filter((r) => r.ms >= 1).sort((x, y) => y.ms - x.ms);
  console.log(`         threads (CPU ms): ${rows.map((r) => `${r.name}/${r.tid} ${Math.round(r.ms)}`).join(', ')}`);
}

const sim = await startBenchSimulator({ seed: 7, size: 'small', rateLimits: UNLIMITED });
const tmp = tempDir('nights-noop');
const server = await new DevServer({ dataDir: join(tmp.dir, 'temporal'), headless: true }).start();
const serverPid = temporalPid() ?? 0;
try {
  const config = configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: join(tmp.dir, 'data') });
  // Defaults filled by this checkout's schema stay out of the file (an older checkout refuses keys it lacks).
  delete (config.warehouse as Record<string, unknown>).runRecordsDays;
  // NIGHTS_DUCKDB_THREADS=<n>: warehouse.threads (a checkout that lacks the key refuses it).
  if (process.env.NIGHTS_DUCKDB_THREADS) (config.warehouse as Record<string, unknown>).threads = Number(process.env.NIGHTS_DUCKDB_THREADS);
  mkdirSync(tmp.dir, { recursive: true });
  const configFile = join(tmp.dir, 'config.yaml');
  writeFileSync(configFile, toYaml(config));
  const env = { ...ENV, TEMPORAL_ADDRESS: server.address };
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, '--config', configFile, ...args], { cwd: ROOT, env, encoding: 'utf8' });
    if (r.status !== 0 && args[0] !== 'verify') throw new Error(`glacier-etl ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  const prof = process.env.NIGHTS_WORKER_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.NIGHTS_WORKER_PROF] : [];
  const worker = spawn(process.execPath, [...prof, BIN, '--config', configFile, 'worker'], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((r) => worker.once('exit', () => r()));
  const lines: string[] = [];
  await new Promise<void>((ok, fail) => {
    createInterface({ input: worker.stderr! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"msg":"worker running"')) ok();
    });
    void exited.then(() => fail(new Error(`worker exited during start-up: ${lines.slice(-5).join('\n')}`)));
  });
  try {
    const workerCpu = () => processCpuSeconds(worker.pid!);
    const b0 = [performance.now(), workerCpu()];
    cli('backfill', '--no-export');
    const b1 = [performance.now(), workerCpu()];
    process.stdout.write(cli('export'));
    const b2 = [performance.now(), workerCpu()];
    console.log(`backfill: wall ${fmt((b1[0] - b0[0]) / 1000, 2)} s, worker CPU ${fmt(b1[1] - b0[1], 2)} s; first export: wall ${fmt((b2[0] - b1[0]) / 1000, 2)} s, worker CPU ${fmt(b2[1] - b1[1], 2)} s`);
    cli('verify');
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const taskQueue = config.temporal?.taskQueue ?? 'glacier-etl';
    console.log(`code: ${ROOT}\nnight  partitions  wall s  worker CPU s  server CPU s  worker+server  worker RSS MB  export files  checks`);
    const cpu = () => [worker.pid!, serverPid].map((p) => (p ? processCpuSeconds(p) : 0));
    /** One workflow on the running worker: its wall time and the worker's and server's CPU over it. */
    const timed = async <T>(type: string, id: string, args: unknown[]): Promise<{ value: T; wall: number; worker: number; server: number }> => {
      const [w0, s0] = cpu();
      const th0 = threadTimes(worker.pid!);
      const t0 = performance.now();
      const value = (await client.workflow.execute(type, { taskQueue, workflowId: id, args })) as T;
      const wall = (performance.now() - t0) / 1000;
      const [w1, s1] = cpu();
      if (process.env.NIGHTS_THREADS) printThreads(th0, threadTimes(worker.pid!));
      return { value, wall, worker: w1 - w0, server: s1 - s0 };
    };
    /** History events of a run and of the child workflows it started (their latest runs): what a night leaves in Temporal. */
    const historyEvents = async (workflowId: string): Promise<{ events: number; children: number }> => {
      const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const children = events.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
      let total = events.length;
      for (const id of children) total += (await client.workflow.getHandle(id).fetchHistory()).events?.length ?? 0;
      return { events: total, children: children.length };
    };
    const split = process.env.NIGHTS_SPLIT === '1';
    const pipelineArgs = (exportParquet: boolean, verify?: string) => [{ mode: 'sync', partitionConcurrency: config.partitionConcurrency ?? 6, maxPagesPerBatch: 20, exportParquet, ...(verify ? { verify } : {}) }];
    type Status = { partitions: unknown[]; exported?: { files: number }; verified?: { checks: number; problems: unknown[] } };
    console.log(`code: ${ROOT}${split ? ' (phases as separate workflows: sync, export, verify --changed)' : ''}`);
    console.log('night  phase     partitions  wall s  worker CPU s  server CPU s  worker+server  worker RSS MB  export files  checks');
    const line = (night: number, phase: string, r: { wall: number; worker: number; server: number }, partitions: string, files: string, checks: string) =>
      console.log(
        `${String(night).padStart(5)}  ${phase.padEnd(8)}  ${partitions.padStart(10)}  ${fmt(r.wall, 2).padStart(6)}  ${fmt(r.worker, 2).padStart(12)}  ${fmt(r.server, 2).padStart(12)}  ${fmt(r.worker + r.server, 2).padStart(13)}  ${fmt(readStatusKb(worker.pid!, 'VmRSS') / 1024, 0).padStart(13)}  ${files.padStart(12)}  ${checks}`,
      );
    for (let night = 1; night <= nights; night++) {
      await new Promise((r) => setTimeout(r, 2000)); // pollers settle
      if (!split) {
        const r = await timed<Status>('pipelineWorkflow', `nights-noop-${night}`, pipelineArgs(true, process.env.NIGHTS_VERIFY ?? 'changed'));
        const h = await historyEvents(`nights-noop-${night}`);
        line(night, 'night', r, String(r.value.partitions.length), String(r.value.exported?.files ?? '-'), `${r.value.verified ? `${r.value.verified.checks} (${r.value.verified.problems.length} problems)` : '-'}; history: ${h.events} events, ${h.children} child workflows`);
        continue;
      }
      const before = commitProfile();
      const s = await timed<Status>('pipelineWorkflow', `nights-noop-${night}`, pipelineArgs(false));
      const h = await historyEvents(`nights-noop-${night}`);
      line(night, 'sync', s, String(s.value.partitions.length), '-', `history: ${h.events} events, ${h.children} child workflows`);
      if (before) printProfileDiff(before, commitProfile()!);
      const beforeExport = commitProfile();
      const e = await timed<{ files: number }>('exportWorkflow', `nights-noop-export-${night}`, [{}]);
      line(night, 'export', e, '-', String(e.value.files), '-');
      if (beforeExport) printProfileDiff(beforeExport, commitProfile()!);
      const v = await timed<{ ok: boolean }[]>('verifyWorkflow', `nights-noop-verify-${night}`, [{ mode: 'changed' }]);
      line(night, 'verify', v, '-', '-', `${v.value.length} (${v.value.filter((f) => !f.ok).length} problems)`);
    }
    console.log(`(CPU from /proc at ${USER_HZ} Hz; the server is the embedded Temporal dev server)`);
  } finally {
    worker.kill('SIGINT');
    await exited;
  }
} finally {
  await server.kill();
  await sim.close();
  tmp.remove();
}
