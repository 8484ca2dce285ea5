/**
 * glacier-etl as a deployment runs it, for bench:nights: a simulator (its own process, counted for
 * nobody), a Temporal dev server and a `glacier-etl worker` started once and left up, and the CLI as
 * a client of that cluster (TEMPORAL_ADDRESS). CPU of each process comes from /proc (worker and
 * server) or /usr/bin/time (each CLI command); nothing here knows what a night does inside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { configForWorld } from '../cli/demoConfig.ts';
import { DevServer } from '../worker/devServer.ts';
import { lakeOf, warehousePath } from '../worker/paths.ts';
import type { LakeSettings } from '../activities/lake/settings.ts';
import type { PipelineConfig } from '../worker/config.ts';
import { WORLD_SIZES, type SimulatorOptions, type SimulatorStats, type WorldSize } from '../tools/simulator/index.ts';
import { processCpuSeconds, startBenchSimulator, UNLIMITED, type BenchSimulator } from './benchWorld.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GLACIER_BIN = join(ROOT, 'bin', 'glacier-etl.js');

export interface CliRun {
  code: number;
  seconds: number;
  /** User + system CPU of the command's process tree (/usr/bin/time). */
  cpuSeconds: number;
  stdout: string;
  stderr: string;
}


/**
 * The nights world (bench:nights, bench/exportTables.ts): the small world's addresses, tokens and
 * validators (40, so the simulator's BLS set-up stays short), day-scale clocks of `stepsPerDay`, a
 * history of `days` days on the C-chain and the primary network (the other EVM chains start at their
 * share of it), blocks of up to 10 transactions.
 */
export const nightsSize = (days: number, stepsPerDay: number): Partial<WorldSize> => ({
  ...WORLD_SIZES.small,
  validators: 40,
  maxTxsPerBlock: 10,
  stepsPerDay,
  evmBlocks: days * stepsPerDay,
  // About 1.2 primary-network transactions per chain per step: the same number of days.
  pnTxsPerChain: Math.round(1.2 * days * stepsPerDay),
});
/** The pid of the newest `temporal` process this process started (the dev server). */
function devServerPid(): number {
  let found = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'temporal') found = Math.max(found, Number(name));
    } catch {
      // ended while we looked
    }
  }
  if (!found) throw new Error('bench:nights: could not find the dev server process');
  return found;
}

/** Bytes of a file and its SQLite/DuckDB side files (-wal, -shm, .wal); 0 for what does not exist. */
export function fileBytes(path: string, sides: string[]): number {
  return [path, ...sides.map((s) => path + s)].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
}

export interface ServiceOptions {
  label: string;
  dir: string;
  simulator: SimulatorOptions;
  /** Changes to the demo's config for the world (streams, addresses...). */
  tune?: (config: PipelineConfig) => void;
  log: (line: string) => void;
}

export class NightService {
  readonly configFile: string;
  readonly dataDir: string;
  private worker?: ChildProcess;
  private workerExited?: Promise<void>;
  private workerTail: string[] = [];
  serverPid = 0;
  client!: Client;
  /** A wait for a run that stalled is still pending on the connection (closing it would throw in gRPC's timers). */
  abandonedWait = false;
  /** The pipeline config the worker and the CLI read (the demo's for this world, tuned). */
  config!: PipelineConfig;
  private connection?: Connection;

  private constructor(
    readonly options: ServiceOptions,
    readonly sim: BenchSimulator,
    readonly server: DevServer,
  ) {
    this.dataDir = join(options.dir, 'data');
    this.configFile = join(options.dir, 'config.yaml');
  }

  static async start(options: ServiceOptions): Promise<NightService> {
    mkdirSync(options.dir, { recursive: true });
    const sim = await startBenchSimulator({ rateLimits: UNLIMITED, ...options.simulator });
    const server = new DevServer({ dataDir: join(options.dir, 'temporal'), headless: true });
    const svc = new NightService(options, sim, server);
    try {
      const config = configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: svc.dataDir });
      // A short history may not have minted the sample NFTs yet (the API answers 404): configure those that exist.
      for (const chain of config.evmChains) {
        const exists = await Promise.all((chain.nfts ?? []).map(async (n) => (await fetch(`${sim.baseUrl}/v1/chains/${chain.chainId}/nfts/collections/${n.contract}/tokens/${n.tokenId}`)).ok));
        chain.nfts = (chain.nfts ?? []).filter((_, i) => exists[i]);
      }
      options.tune?.(config);
      svc.config = config;
      writeFileSync(svc.configFile, toYaml(config));
      await server.start();
      svc.serverPid = devServerPid();
      svc.connection = await Connection.connect({ address: server.address });
      svc.client = new Client({ connection: svc.connection });
      await svc.startWorker();
    } catch (error) {
      await svc.stop();
      throw error;
    }
    return svc;
  }

  get workerPid(): number {
    return this.worker?.pid ?? 0;
  }

  get lake(): LakeSettings {
    return lakeOf({ dataDir: this.dataDir });
  }

  get warehouseFile(): string {
    return warehousePath(this.dataDir);
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, TEMPORAL_ADDRESS: this.server.address, GLACIER_DATA_DIR: '', GLACIER_API_KEY: '', GLACIER_METRICS_PORT: '' };
  }

  private async startWorker(): Promise<void> {
    // NIGHTS_WORKER_PROF=<dir>: a V8 CPU profile of each worker it starts, written there when the worker stops.
    const prof = process.env.NIGHTS_WORKER_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.NIGHTS_WORKER_PROF] : [];
    // NIGHTS_WORKER_METRICS_PORT: the worker serves /metrics there (its heap, DuckDB's buffer) for a sampler beside the run.
    const metrics = process.env.NIGHTS_WORKER_METRICS_PORT ? { GLACIER_METRICS_PORT: process.env.NIGHTS_WORKER_METRICS_PORT } : {};
    const worker = spawn(process.execPath, [...prof, GLACIER_BIN, '--config', this.configFile, 'worker'], { cwd: ROOT, env: { ...this.env(), LOG_LEVEL: 'info', ...metrics }, stdio: ['ignore', 'ignore', 'pipe'] });
    this.worker = worker;
    this.workerExited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      // Read every line (a full pipe would stall the worker); keep a tail for errors.
      createInterface({ input: worker.stderr! }).on('line', (line) => {
        this.workerTail.push(line);
        if (this.workerTail.length > 40) this.workerTail.shift();
        if (line.includes('"msg":"worker running"')) resolve();
      });
      void this.workerExited!.then(() => reject(new Error(`glacier-etl worker exited: ${this.workerTail.slice(-10).join('\n')}`)));
    });
    await new Promise((r) => setTimeout(r, 1000)); // let its pollers settle
  }

  /** CPU seconds so far of the worker and the dev server. */
  cpu(): { worker: number; server: number } {
    return { worker: processCpuSeconds(this.workerPid), server: processCpuSeconds(this.serverPid) };
  }

  /** One CLI command as a client of the running cluster, under /usr/bin/time; past timeoutMs it is stopped and exits non-zero. */
  cli(args: string[], timeoutMs?: number): Promise<CliRun> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn('/usr/bin/time', ['-f', 'TIME %U %S', process.execPath, GLACIER_BIN, '--config', this.configFile, ...args], { cwd: ROOT, env: { ...this.env(), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      // /usr/bin/time does not pass a signal on to its command: the command runs in its own process
      // group (detached), and the whole group is stopped.
      const timer = timeoutMs ? setTimeout(() => process.kill(-child.pid!, 'SIGTERM'), timeoutMs) : undefined;
      child.on('close', (code) => {
        clearTimeout(timer);
        if (timer && performance.now() - t0 >= timeoutMs!) stderr = `stopped after ${timeoutMs! / 1000} s (still running)\n${stderr}`;
        const time = /TIME ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
        resolve({ code: code ?? 1, seconds: (performance.now() - t0) / 1000, cpuSeconds: time ? Number(time[1]) + Number(time[2]) : 0, stdout, stderr: stderr.replace(/(Command exited with non-zero status \d+\n)?TIME [\d.]+ [\d.]+\s*$/, '') });
      });
    });
  }

  /** A CLI command that must succeed. */
  async mustCli(args: string[], timeoutMs?: number): Promise<CliRun> {
    const r = await this.cli(args, timeoutMs);
    if (r.code !== 0) {
      // A run's JSON: name the partitions that did not finish rather than its tail.
      const failed = [...r.stdout.matchAll(/"partitionId": "([^"]+)",\s*"stream": "[^"]*",\s*"state": "(failed|skipped)"[^}]*?"error": ("[^"]*")/g)].map((m) => `${m[1]} ${m[2]}: ${m[3]}`);
      throw new Error(`glacier-etl ${args.join(' ')} exited ${r.code}: ${failed.length ? failed.join('\n') : [...r.stdout.trim().split('\n').slice(-20), ...r.stderr.trim().split('\n').slice(-10)].join('\n').slice(-3000)}`);
    }
    return r;
  }

  async simStats(): Promise<Pick<SimulatorStats, 'requests' | 'cu'>> {
    const s = (await (await fetch(`${this.sim.baseUrl}/admin/stats?log=0`)).json()) as SimulatorStats;
    return { requests: s.requests, cu: s.cu };
  }

  /** Grows the world by `days` of activity on every chain (size.stepsPerDay). */
  async advanceDays(days: number): Promise<void> {
    const res = await fetch(`${this.sim.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ days }) });
    if (!res.ok) throw new Error(`advance: HTTP ${res.status} ${await res.text()}`);
  }

  /**
   * The night the export benches measure: backfill, one day synced and exported, one more day synced
   * without export (its changes wait in the lake marks), then the worker stops to free the file.
   */
  async syncedUnexportedNight(): Promise<void> {
    await this.mustCli(['backfill', '--json']);
    await this.advanceDays(1);
    await this.mustCli(['sync', '--json']);
    await this.advanceDays(1);
    await this.mustCli(['sync', '--no-export', '--json']);
    await this.stopWorker();
  }

  /** Stops the worker (SIGTERM, so its DuckDB file is released); the server and simulator stay up. */
  async stopWorker(): Promise<void> {
    const worker = this.worker;
    if (!worker || worker.exitCode !== null) return;
    worker.kill('SIGTERM');
    const timer = setTimeout(() => worker.kill('SIGKILL'), 30_000);
    await this.workerExited;
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await this.stopWorker().catch(() => undefined);
    if (!this.abandonedWait) await this.connection?.close().catch(() => undefined);
    await this.server.stop().catch(() => undefined);
    await this.sim.close();
  }
}
