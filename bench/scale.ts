/**
 * Scale: does the default configuration take any history? Backfills worlds at 1x, 10x and 100x the
 * demo's (`small`: EVM blocks and primary-network transactions per chain scaled; every stream, three
 * addresses per chain, a pro key, a simulator whose quota never binds), then a night on each (the
 * same growth), as a user runs it in production: a `glacier-etl worker` process and the CLI's
 * `backfill` / `sync` against one Temporal dev server. Per world and run it prints rows, wall,
 * rows/s, the worker's CPU per row and peak RSS, warehouse bytes per row, the out-of-memory retries
 * and failed batches the worker logged, stopped partitions, and the requests the simulator answered
 * against the minimum (one per page committed, plus planning's): above 1.00 means pages fetched twice.
 *
 *   npm run bench:scale                         1x, 10x, 100x (the 100x world backfills ~7M rows: about an hour here)
 *   npm run bench:scale -- --scales 1,10        only these
 *   npm run bench:scale -- --memory-limit 256MB a setting under measure (default: the config's own)
 *   npm run bench:scale -- --keep               keep the data directories (printed)
 *   npm run bench:scale -- --worker-heap-mb 256  a setting under measure: the worker's V8 old-space limit
 *   npm run bench:scale -- --trace              scrape the worker's /metrics every 2 s and print, per run, what
 *                                               its memory held at the highest RSS sampled (Node heap reserved and
 *                                               used, external,
 *                                               DuckDB's buffer by tag and its limit then)
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import { configForWorld } from '../cli/demoConfig.ts';
import { WORLD_SIZES } from '../tools/simulator/index.ts';
import { DevServer } from '../worker/devServer.ts';
import { freePort } from '../worker/freePort.ts';
import { warehousePath } from '../worker/paths.ts';
import { countRows, fmt, readStatusKb, startBenchSimulator, tempDir, UNLIMITED, USER_HZ } from './benchWorld.ts';

const { values } = parseArgs({
  options: {
    scales: { type: 'string', default: '1,10,100' },
    'memory-limit': { type: 'string' },
    threads: { type: 'string' },
    'night-steps': { type: 'string', default: '500' },
    keep: { type: 'boolean', default: false },
    /** Where the worker's memory went: /metrics every 2 s, the breakdown at the RSS peak printed per run. */
    trace: { type: 'boolean', default: false },
    /** A setting under measure: the worker process's V8 old-space limit (node --max-old-space-size), in MB. */
    'worker-heap-mb': { type: 'string' },
  },
});
const SCALES = values.scales.split(',').map(Number);
if (SCALES.some((s) => !Number.isFinite(s) || s <= 0)) throw new Error(`--scales ${values.scales}: expected positive numbers, e.g. 1,10,100`);
const NIGHT_STEPS = Number(values['night-steps']);
const WORKER_HEAP_MB = values['worker-heap-mb'] === undefined ? undefined : Number(values['worker-heap-mb']);
if (WORKER_HEAP_MB !== undefined && !(Number.isInteger(WORKER_HEAP_MB) && WORKER_HEAP_MB >= 64)) throw new Error(`--worker-heap-mb ${values['worker-heap-mb']}: expected a whole number of MB, at least 64`);
const BIN = fileURLToPath(new URL('../bin/glacier-etl.js', import.meta.url));

export interface RunFigures {
  rows: number;
  wallS: number;
  cpuS: number;
  peakRssMb: number;
  /** With --trace: what the worker held at the highest RSS sampled. */
  peakBreakdown?: string;
  warehouseBytes: number;
  oomRetries: number;
  failedBatches: number;
  stopped: number;
  requests: number;
  minimumRequests: number;
}

/** Worker CPU (user + sys) in seconds from /proc/<pid>/stat; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return 0;
  }
}

interface WorkerProcess {
  pid: number;
  counts: { oom: number; failed: number };
  /** Rejects if the worker exits before stop(), with its exit and its last log lines (a run would otherwise wait for it forever). */
  died: Promise<never>;
  stop(): Promise<void>;
}

async function startWorker(configFile: string, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const heap = WORKER_HEAP_MB === undefined ? [] : [`--max-old-space-size=${WORKER_HEAP_MB}`];
  const worker = spawn(process.execPath, [...heap, BIN, '--config', configFile, 'worker'], { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stopping = false;
  const tail: string[] = [];
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const died = new Promise<never>((_, reject) =>
    worker.once('exit', (code, signal) => {
      if (!stopping) reject(new Error(`the worker exited during the run (code ${code}, signal ${signal}); its last log lines:\n  ${tail.join('\n  ')}`));
    }),
  );
  died.catch(() => undefined);
  const counts = { oom: 0, failed: 0 };
  await new Promise<void>((resolve) => {
    createInterface({ input: worker.stderr! }).on('line', (line) => {
      tail.push(line.slice(0, 400));
      if (tail.length > 10) tail.shift();
      if (line.includes('"msg":"worker running"')) resolve();
      if (line.includes('ran out of buffer memory')) counts.oom += 1;
      if (line.includes('"msg":"batch failed"')) counts.failed += 1;
      if (/"level":(5|6)\d/.test(line) || !line.startsWith('{')) process.stderr.write(`  worker: ${line.slice(0, 400)}\n`);
    });
    void exited.then(() => resolve());
  });
  return {
    pid: worker.pid!,
    counts,
    died,
    stop: async () => {
      stopping = true;
      worker.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `glacier-etl backfill|sync` as a client of the worker; resolves with its JSON status. */
function runCli(configFile: string, env: NodeJS.ProcessEnv, mode: 'backfill' | 'sync'): Promise<{ partitions: { state: string; rows: number; pages: number }[] }> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [BIN, '--config', configFile, mode, '--no-export', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    cli.stdout.on('data', (d: Buffer) => (out += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (err += d.toString()));
    cli.once('exit', (code) => {
      try {
        resolve(JSON.parse(out.slice(out.indexOf('{'))) as { partitions: { state: string; rows: number; pages: number }[] });
      } catch {
        reject(new Error(`${mode} exited ${code}: ${err.split('\n').slice(-5).join(' | ')}`));
      }
    });
  });
}

/** Parses Prometheus text into `name{labels}` -> value (enough for the gauges below). */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+(?:\{[^}]*\})?) ([-0-9.e+]+)$/i.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/** --trace: scrapes the worker's /metrics every 2 s and keeps the scrape taken at the highest RSS. */
function traceMemory(pid: number, port: number): { stop(): string | undefined } {
  let peak: { rssKb: number; metrics: Map<string, number> } | undefined;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void fetch(`http://127.0.0.1:${port}/metrics`)
      .then(async (r) => {
        const metrics = parseMetrics(await r.text());
        const rssKb = readStatusKb(pid, 'VmRSS');
        if (!peak || rssKb > peak.rssKb) peak = { rssKb, metrics };
      })
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, 2_000);
  return {
    stop() {
      clearInterval(timer);
      if (!peak) return undefined;
      const mb = (bytes: number | undefined) => fmt((bytes ?? 0) / 1024 / 1024);
      const duck = [...peak.metrics].filter(([k]) => k.startsWith('glacier_duckdb_memory_bytes{')).sort((a, b) => b[1] - a[1]);
      const duckTotal = duck.reduce((n, [, v]) => n + v, 0);
      const top = duck.slice(0, 3).map(([k, v]) => `${/tag="([^"]*)"/.exec(k)?.[1]} ${mb(v)}`).join(', ');
      return `RSS ${fmt(peak.rssKb / 1024)} MB: Node heap ${mb(peak.metrics.get('nodejs_heap_size_total_bytes'))} (used ${mb(peak.metrics.get('nodejs_heap_size_used_bytes'))}), external ${mb(peak.metrics.get('nodejs_external_memory_bytes'))}, DuckDB buffer ${mb(duckTotal)} of limit ${mb(peak.metrics.get('glacier_duckdb_memory_limit_bytes'))} (${top}), WAL ${mb(peak.metrics.get('glacier_duckdb_wal_bytes'))}`;
    },
  };
}

async function measure(mode: 'backfill' | 'sync', configFile: string, dataDir: string, env: NodeJS.ProcessEnv, stats: () => Promise<{ requests: number }>, metricsPort?: number): Promise<RunFigures> {
  const worker = await startWorker(configFile, env);
  let peakKb = 0;
  let cpu = 0;
  const sample = () => {
    peakKb = Math.max(peakKb, readStatusKb(worker.pid, 'VmHWM'));
    cpu = Math.max(cpu, cpuSeconds(worker.pid));
  };
  const sampler = setInterval(sample, 500);
  const trace = metricsPort === undefined ? undefined : traceMemory(worker.pid, metricsPort);
  const cpuBefore = cpuSeconds(worker.pid);
  const requestsBefore = (await stats()).requests;
  const started = performance.now();
  let status;
  try {
    status = await Promise.race([runCli(configFile, env, mode), worker.died]);
  } finally {
    sample();
    clearInterval(sampler);
    await worker.stop();
  }
  const peakBreakdown = trace?.stop();
  const wallS = (performance.now() - started) / 1000;
  const requests = (await stats()).requests - requestsBefore;
  const warehouse = await openWarehouse(warehousePath(dataDir));
  try {
    // One request per committed page, plus what planning and single lookups spent (recorded per run).
    const [run] = await warehouse.query(
      `SELECT sum(pages) AS pages, sum(CASE WHEN partition_id = 'plan' THEN requests ELSE 0 END) AS plan FROM _glacier_sync_runs WHERE run_id = (SELECT run_id FROM _glacier_sync_runs ORDER BY started_at DESC LIMIT 1)`,
    );
    const rows = status.partitions.reduce((n, p) => n + p.rows, 0);
    return {
      rows,
      wallS,
      cpuS: cpu - cpuBefore,
      peakRssMb: peakKb / 1024,
      peakBreakdown,
      warehouseBytes: statSync(warehousePath(dataDir)).size,
      oomRetries: worker.counts.oom,
      failedBatches: worker.counts.failed,
      stopped: status.partitions.filter((p) => p.state === 'failed' || p.state === 'stopped').length,
      requests,
      minimumRequests: Number(run?.pages ?? 0) + Number(run?.plan ?? 0),
    };
  } finally {
    await warehouse.close();
  }
}

const line = (label: string, f: RunFigures, totalRows: number) =>
  `${label.padEnd(18)} ${fmt(f.rows).padStart(10)} ${fmt(f.wallS, 1).padStart(8)} ${fmt(f.rows / f.wallS).padStart(8)} ${fmt((f.cpuS / Math.max(1, f.rows)) * 1e6, 1).padStart(10)} ${fmt(f.peakRssMb).padStart(8)} ${fmt(f.warehouseBytes / Math.max(1, totalRows), 1).padStart(9)} ${String(f.oomRetries).padStart(5)} ${String(f.failedBatches).padStart(7)} ${String(f.stopped).padStart(8)} ${fmt(f.requests / Math.max(1, f.minimumRequests), 3).padStart(9)}`;

const state = tempDir('scale-temporal');
const server = await new DevServer({ dataDir: state.dir, headless: true }).start();
const results: { scale: number; backfill: RunFigures; night: RunFigures }[] = [];
console.log(`bench:scale: worlds ${SCALES.map((s) => `${s}x`).join(', ')} of 'small' (evmBlocks, pnTxsPerChain scaled), every stream, default config${values['memory-limit'] ? ` but warehouse.memoryLimit ${values['memory-limit']}` : ''}${values.threads ? `, warehouse.threads ${values.threads}` : ''}${WORKER_HEAP_MB ? `, the worker's V8 old space ${WORKER_HEAP_MB} MB` : ''}; a night = ${NIGHT_STEPS} world steps`);
console.log(`${'run'.padEnd(18)} ${'rows'.padStart(10)} ${'wall s'.padStart(8)} ${'rows/s'.padStart(8)} ${'CPU µs/row'.padStart(10)} ${'peak MB'.padStart(8)} ${'B/row wh'.padStart(9)} ${'oom'.padStart(5)} ${'failed'.padStart(7)} ${'stopped'.padStart(8)} ${'req/min'.padStart(9)}`);
try {
  for (const scale of SCALES) {
    const size = { ...WORLD_SIZES.small, evmBlocks: Math.round(WORLD_SIZES.small.evmBlocks * scale), pnTxsPerChain: Math.round(WORLD_SIZES.small.pnTxsPerChain * scale) };
    const sim = await startBenchSimulator({ seed: 1, size, rateLimits: UNLIMITED, keys: [{ key: 'bench-key', tier: 'pro' }] });
    const tmp = tempDir(`scale-${scale}x`);
    try {
      const config = configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: tmp.dir });
      const file = {
        ...config,
        temporal: { ...config.temporal, taskQueue: `bench-scale-${scale}x-${Date.now()}` },
        warehouse: { ...config.warehouse, ...(values['memory-limit'] ? { memoryLimit: values['memory-limit'] } : {}), ...(values.threads ? { threads: Number(values.threads) } : {}) },
      };
      const metricsPort = values.trace ? await freePort() : undefined;
      if (metricsPort !== undefined) file.worker = { ...file.worker, metricsPort };
      const configFile = join(tmp.dir, 'config.json');
      writeFileSync(configFile, JSON.stringify(file));
      const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: server.address, GLACIER_API_KEY: 'bench-key' };
      delete env.GLACIER_DATA_DIR;
      const stats = () => sim.stats();
      const backfill = await measure('backfill', configFile, tmp.dir, env, stats, metricsPort);
      const total = async () => {
        const w = await openWarehouse(warehousePath(tmp.dir));
        try {
          return (await countRows(w)).total;
        } finally {
          await w.close();
        }
      };
      console.log(line(`${scale}x backfill`, backfill, await total()));
      if (backfill.peakBreakdown) console.log(`  at peak: ${backfill.peakBreakdown}`);
      // A production night follows the backfill's export, which started the change marks (a new
      // warehouse writes none before: Warehouse.startChangeMarks); the night here marks as it would.
      const w = await openWarehouse(warehousePath(tmp.dir));
      await w.startChangeMarks().finally(() => w.close());
      await fetch(`${sim.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ steps: NIGHT_STEPS }) });
      const night = await measure('sync', configFile, tmp.dir, env, stats, metricsPort);
      console.log(line(`${scale}x night`, night, await total()));
      if (night.peakBreakdown) console.log(`  at peak: ${night.peakBreakdown}`);
      results.push({ scale, backfill, night });
    } finally {
      await sim.close();
      if (values.keep) console.log(`  kept ${tmp.dir}`);
      else tmp.remove();
    }
  }
} finally {
  await server.stop();
  state.remove();
}

const base = results.find((r) => r.scale === Math.min(...SCALES));
const top = results.find((r) => r.scale === Math.max(...SCALES));
if (base && top && base !== top) {
  const cpuPerRow = (f: RunFigures) => f.cpuS / Math.max(1, f.rows);
  for (const run of ['backfill', 'night'] as const) {
    const b = base[run];
    const t = top[run];
    console.log(
      `${top.scale}x / ${base.scale}x ${run}: CPU per row ${fmt(cpuPerRow(t) / cpuPerRow(b), 2)} (<= 1.2), peak RSS ${fmt(t.peakRssMb / b.peakRssMb, 2)} (<= 1.2); ${top.scale}x: ${t.oomRetries} out-of-memory retries, ${t.failedBatches} failed batches (0), requests / minimum ${fmt(t.requests / Math.max(1, t.minimumRequests), 3)} (1.000)`,
    );
  }
}
