import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataApiClient } from '../../activities/api/index.ts';
import { createSyncCore, type SyncCore, type SyncCoreDeps } from '../../activities/sync/index.ts';
import type { BatchInput, PartitionSpec } from '../../activities/sync/types.ts';
import { openWarehouse, type OpenOptions, type Warehouse } from '../../activities/warehouse/index.ts';
import type { DataApiClient } from '../../activities/api/index.ts';
import { expect } from 'vitest';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { resolveConfig, validateConfig, type ResolvedConfig } from '../../worker/config.ts';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../worker/logger.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../tools/simulator/index.ts';

/** A real simulator over HTTP, a real client, a real DuckDB file in a temp dir, and the sync core over them. */
export interface Harness {
  sim: Simulator;
  dir: string;
  warehouse: Warehouse;
  config: ResolvedConfig;
  /** The client the core uses (a test may build a second core over it). */
  client: DataApiClient;
  core: SyncCore;
  close(): Promise<void>;
}

export interface HarnessOptions {
  sim?: SimulatorOptions;
  config: (sim: Simulator) => Record<string, unknown> | Promise<Record<string, unknown>>;
  pageSize?: number | null;
  warehouse?: OpenOptions;
  core?: Pick<SyncCoreDeps, 'cellBudget' | 'commitMaxCells'>;
  /** API keys the client sends (the simulator takes any). */
  apiKeys?: string[];
  /** Where the logs go, at debug level (default: none). */
  log?: DestinationStream;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const sim = await startSimulator({ seed: 7, size: 'tiny', ...options.sim });
  const dir = mkdtempSync(join(tmpdir(), 'glacier-wh-'));
  const raw = { dataDir: dir, ...(await options.config(sim)), api: { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, tier: 'pro', ...(options.pageSize === null ? {} : { pageSize: options.pageSize ?? 25 }) } };
  const config = resolveConfig(validateConfig(raw), {});
  const logger = createLogger(options.log ? { level: 'debug', destination: options.log } : { level: process.env.GLACIER_TEST_LOG ?? 'silent' });
  const client = createDataApiClient({
    baseUrl: sim.baseUrl,
    metricsUrl: sim.metricsUrl,
    tier: 'pro',
    apiKeys: options.apiKeys,
    concurrency: 4,
    logger,
    // The simulator runs without rate limits here; keep the client-side limiter out of the way too.
    rateLimitOverride: { perWindow: 1e9, perDay: 1e12, metrics: { perWindow: 1e9, perDay: 1e12 } },
  });
  const warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'), options.warehouse);
  const core = createSyncCore({ client, warehouse, config, logger, ...options.core });
  // A test that stalls says where (CI once saw a harness hook time out after 240 s): every minute, the
  // partition being drained and the client's counters, on stderr.
  const started = Date.now();
  const watchdog = setInterval(() => {
    const { requests, responses, retries, failures } = client.stats();
    process.stderr.write(`harness still running after ${Math.round((Date.now() - started) / 1000)} s: draining ${draining ?? 'nothing'}; requests ${requests}, responses ${responses}, retries ${retries}, failures ${JSON.stringify(failures)}\n`);
  }, 60_000).unref();
  return {
    sim,
    dir,
    warehouse,
    config,
    client,
    core,
    async close() {
      clearInterval(watchdog);
      await warehouse.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The partition drain() is in, for the watchdog. */
let draining: string | undefined;

/** Runs batches until the partition's walk is done; returns pages fetched. */
export async function drain(core: SyncCore, partition: PartitionSpec, run: Partial<Omit<BatchInput, 'partition'>> = {}): Promise<number> {
  let pages = 0;
  for (let i = 0; i < 10_000; i++) {
    draining = `${partition.id} (batch ${i + 1}, ${pages} pages)`;
    const result = await core.syncBatch({ partition, maxPages: 4, mode: 'sync', runId: 'run-1', snapshotAt: 1_800_000_000, ...run });
    pages += result.pages;
    if (result.done) {
      draining = undefined;
      return pages;
    }
  }
  throw new Error(`partition ${partition.id} never finished`);
}

/** A pipeline run: the configured wave, then the derived one (what the workflow and the bench do). */
export async function runWaves(h: Harness, mode: 'backfill' | 'sync', runId: string, snapshotAt: number): Promise<{ waves: PartitionSpec[][] }> {
  const seen = new Set<string>();
  const waves: PartitionSpec[][] = [];
  for (const discovered of [false, true]) {
    const wave = (await h.core.planPartitions({ discovered, mode, runId, snapshotAt })).filter((p) => !seen.has(p.id));
    wave.forEach((p) => seen.add(p.id));
    waves.push(wave);
    for (const p of wave) await drain(h.core, p, { runId, mode, snapshotAt });
  }
  return { waves };
}

export async function drainAll(h: Harness, streams: string[], run: Partial<Omit<BatchInput, 'partition'>> = {}): Promise<PartitionSpec[]> {
  const partitions = await h.core.planPartitions({ streams: streams as never });
  for (const p of partitions) await drain(h.core, p, run);
  return partitions;
}

/** Ground truth items of a list or get endpoint, as the simulator's world has them. */
export async function truth(sim: Simulator, path: string, query: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<Record<string, unknown>[]> {
  return (await sim.groundTruth(method, path, query, body)) as Record<string, unknown>[];
}

/** The first EVM chain of the world and the hashes of its latest `count` transactions (ground truth). */
/** The id of the world's first EVM chain. */
export function firstChainId(sim: Simulator): string {
  return (sim.world.describe().evm as unknown as { chains: { chainId: string }[] }).chains[0].chainId;
}

export async function firstChainTxHashes(sim: Simulator, count: number): Promise<{ chainId: string; hashes: string[] }> {
  const chainId = firstChainId(sim);
  const txs = (await sim.groundTruth('GET', `/v1/chains/${chainId}/transactions`)) as { txHash: string }[];
  return { chainId, hashes: txs.slice(0, count).map((t) => t.txHash) };
}

export const sorted = <T>(xs: T[]) => [...xs].sort();

/** Every table of the partitions equals the simulator's ground truth row for row; the comparisons, for further checks. */
export async function expectExact(h: Harness, partitions: PartitionSpec[], snapshotAt: number) {
  const compared = await compareWithTruth(h.sim, h.warehouse, partitions, { snapshotAt });
  for (const c of compared) {
    expect({ table: c.table, lost: c.lost, duplicated: c.duplicated, examples: c.examples }).toEqual({ table: c.table, lost: 0, duplicated: 0, examples: [] });
  }
  return compared;
}

/** The small world, its mainnet primary-network address set on all three chains, pn.transactions and pn.utxos (the UTXO tests). */
export function startUtxoHarness(): Promise<Harness> {
  return startHarness({
    sim: { size: 'small' },
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
      return { streams: ['pn.transactions', 'pn.utxos'], networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 6) }] };
    },
  });
}
