/**
 * Shared set-up of the pipeline benchmarks: a simulator in a child process (bench/simulatorServe.ts,
 * so its CPU is not counted against the code under test), the world it serves, a pipeline config for
 * a fixed stream set, and row counts of a warehouse.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORLD_SIZES, type SimulatorOptions, type SimulatorStats, type WorldDescription, type WorldSize } from '../tools/simulator/index.ts';
import { configForWorld } from '../cli/demoConfig.ts';
import { resolveConfig, type ResolvedConfig } from '../worker/config.ts';
import type { StreamName } from '../common/streamNames.ts';
import { allTables } from '../activities/streams/catalog.ts';
import type { Warehouse } from '../activities/warehouse/warehouse.ts';

/** The streams every throughput figure walks: EVM lists plus chain-wide primary-network lists. */
export const BENCH_STREAMS: StreamName[] = process.env.BENCH_STREAMS
  ? (process.env.BENCH_STREAMS.split(',') as StreamName[])
  : ['evm.blocks', 'evm.transactions', 'evm.address_transactions', 'evm.token_transfers', 'pn.transactions', 'pn.vertices'];

/**
 * The throughput world: 'small' with 10,000 blocks (BENCH_BLOCKS), 5,000 primary-network
 * transactions per chain (BENCH_PN_TXS; about 140k rows, so fixed per-partition costs do not
 * dominate the ratios) and 20 validators instead of 200. The simulator computes each
 * validator's BLS proof of possession on first use (about 0.2 s of CPU each), which would otherwise
 * dominate the first walk of pn.transactions/p-chain.
 */
export const BENCH_SIZE: Partial<WorldSize> = {
  ...WORLD_SIZES.small,
  validators: 20,
  evmBlocks: Number(process.env.BENCH_BLOCKS ?? 10_000),
  pnTxsPerChain: Number(process.env.BENCH_PN_TXS ?? 5_000),
};

/** Rate limits on, but far above anything the machine can serve: the client learns the server's limit from headers. */
export const UNLIMITED: SimulatorOptions['rateLimits'] = {
  budgets: Object.fromEntries(['none', 'free', 'base', 'growth', 'pro'].map((t) => [t, { perMinute: 1e12, perDay: 1e15 }])),
  metricsBudget: { perMinute: 1e12, perDay: 1e15 },
};

export interface BenchSimulator {
  baseUrl: string;
  metricsUrl: string;
  world: WorldDescription;
  child: ChildProcess;
  stats(): Promise<SimulatorStats>;
  close(): Promise<void>;
}

export async function startBenchSimulator(options: SimulatorOptions): Promise<BenchSimulator> {
  const child = fork(fileURLToPath(new URL('./simulatorServe.ts', import.meta.url)), [JSON.stringify(options)], {
    // BENCH_SIM_CPU_PROF=<dir> writes a V8 CPU profile of the simulator process there.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SIM_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SIM_CPU_PROF] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ baseUrl: string; metricsUrl: string }>((resolve, reject) => {
    child.once('message', (m: { baseUrl: string; metricsUrl: string }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  const admin = async <T>(path: string): Promise<T> => (await (await fetch(`${ready.baseUrl}${path}`)).json()) as T;
  const world = await admin<WorldDescription>('/admin/describe');
  return {
    ...ready,
    world,
    child,
    stats: () => admin<SimulatorStats>('/admin/stats'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      }),
  };
}

export interface BenchConfigOptions {
  streams?: StreamName[];
  partitionConcurrency: number;
  /** HTTP requests in flight (default: one per partition in flight). */
  apiConcurrency?: number;
  tier?: ResolvedConfig['api']['tier'];
  addressesPerChain?: number;
  /** Only the first EVM chain (memory runs: rows from one chain are enough and simpler to size). */
  firstChainOnly?: boolean;
}

/** A resolved config for the simulated world, independent of the shell's environment. */
export function benchConfig(sim: { baseUrl: string; metricsUrl: string; world: WorldDescription }, dataDir: string, o: BenchConfigOptions): ResolvedConfig {
  const base = configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir, addressesPerChain: o.addressesPerChain ?? 3 });
  base.streams = o.streams ?? BENCH_STREAMS;
  base.partitionConcurrency = o.partitionConcurrency;
  base.api.concurrency = o.apiConcurrency ?? o.partitionConcurrency;
  if (o.tier) base.api.tier = o.tier;
  if (o.firstChainOnly) base.evmChains = base.evmChains.slice(0, 1);
  // Only the chain-wide primary-network partitions: address/node-id sets stay out of the fixed set.
  base.networks = base.networks.map((n) => ({ ...n, addresses: [], nodeIds: [] }));
  return resolveConfig(base, { GLACIER_DATA_DIR: dataDir });
}

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `glacier-bench-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Rows committed in every catalog table. */
export async function countRows(warehouse: Warehouse): Promise<{ total: number; byTable: Record<string, number> }> {
  const byTable: Record<string, number> = {};
  let total = 0;
  for (const t of allTables()) {
    const [row] = await warehouse.query(`SELECT count(*) AS n FROM "${t.name}"`).catch(() => [{ n: 0 }]);
    const n = Number(row?.n ?? 0);
    if (n) byTable[t.name] = n;
    total += n;
  }
  return { total, byTable };
}

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Reads an integer/number knob from the environment. */
export function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : Number(v);
}

/** A memory figure of a process from /proc/<pid>/status (kB): resident now (VmRSS) or its peak (VmHWM); 0 once it is gone. */
export function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resets a process's VmHWM to its resident size now (Linux: `echo 5 > /proc/<pid>/clear_refs`), so the next read is the peak since; false where that is refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const USER_HZ = 100;

/** CPU seconds so far of one process (all its threads), from /proc/<pid>/stat; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return 0;
  }
}
