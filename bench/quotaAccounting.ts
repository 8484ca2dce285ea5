/**
 * CU accounting on a bench world: a backfill of every stream through the worker's sync core, then
 * the world grows by 1% and a `sync` runs. Per stream it prints, from the pipeline's own accounting
 * (_glacier_sync_runs), CU per 1,000 items against the optimum (weight x ceil(items / largest page)
 * per walk, pages the server cut short counted as whole requests), and the sync's CU as a share of
 * the backfill's; and, from the simulator's request log, the CU the server charged per stream, as a
 * cross-check of that accounting.
 *
 * Two worlds, both printed (ACCOUNTING_WORLDS):
 * - `small` (seed 11, 3 addresses per chain): the figure the issue was filed with. Its 200-address
 *   pool and 8 token contracts per chain leave each configured partition a history of a page or
 *   two, so the one request a sync must make per partition (to learn whether anything is new) is
 *   half its backfill or more: on this world the share measures the partition count, not the walk.
 * - `long-history`: the same generator with the pool and token count cut down and the chains made
 *   longer, so each configured address, contract, node and address set has the history of a real
 *   one worth syncing nightly (an address active for years: thousands of transactions, tens of
 *   thousands of UTXOs; a token contract: thousands of transfers). The 1% growth is the same share
 *   of the chain. This is the world the 5% target speaks about; the small one shows the floor.
 */
import pLimit from 'p-limit';
import { isFatal } from '../activities/warehouse/warehouse.ts';
import { STREAMS } from '../activities/streams/catalog.ts';
import { streamCosts, type StreamCost } from '../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { configForWorld } from '../cli/demoConfig.ts';
import { costTable } from '../cli/costTable.ts';
import { WORLD_SIZES, type RequestLogEntry, type WorldSize } from '../tools/simulator/index.ts';
import { resolveConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';
import { buildRuntime, type Runtime } from '../worker/runtime.ts';
import { UNLIMITED, fmt, startBenchSimulator, tempDir, type BenchSimulator } from './benchWorld.ts';

/** A world the accounting runs on: the simulator's size and seed, and addresses configured per chain. */
export interface AccountingWorld {
  name: string;
  seed: number;
  size: WorldSize;
  addressesPerChain: number;
}

export const ACCOUNTING_WORLDS: Record<'small' | 'long-history', AccountingWorld> = {
  small: { name: 'small', seed: 11, size: { ...WORLD_SIZES.small }, addressesPerChain: 3 },
  'long-history': {
    name: 'long-history',
    seed: 11,
    // 20 EVM addresses share 40k blocks (about 10k transactions each on the C-chain), one token
    // contract of each standard per chain, 10 primary-network addresses over 20k transactions per
    // chain, and a validator set and X-chain DAG of a few years.
    size: { ...WORLD_SIZES.small, evmBlocks: 40_000, evmAddresses: 20, erc20Tokens: 1, erc721Tokens: 1, erc1155Tokens: 1, pnTxsPerChain: 20_000, pnAddresses: 10, validators: 1000, vertices: 20_000 },
    addressesPerChain: 3,
  },
};

export interface AccountingResult {
  world: AccountingWorld;
  backfill: StreamCost[];
  sync: StreamCost[];
  /** CU the simulator charged per stream ('plan' = head probes), backfill and sync. */
  served: { backfill: Map<string, number>; sync: Map<string, number> };
  /** pn.validators's active step in the sync (its requests ask validationStatus=active), from the simulator's log. */
  validatorsActive: { requests: number; cu: number };
  growthSteps: number;
}

/**
 * pn.validators in two parts. The active step reads every active validation: current state (uptime,
 * stake, delegations change every run), a point-in-time snapshot like balances, one walk at its
 * optimum. The rest (lookups of validations that left the active set, the list down to the last
 * walk's newest) is what changed, judged against the 5% target.
 */
async function validatorsActiveStep(log: RequestLogEntry[], warehouse: Runtime['warehouse']): Promise<{ requests: number; cu: number }> {
  const of = streamOfRequest();
  const validators = log.filter((e) => e.status >= 200 && e.status < 300 && of(e) === 'pn.validators');
  const active = validators.filter((e) => /(^|&)validationStatus=active(&|$)/.test(e.query));
  if (active.length > 0 || validators.length === 0) return { requests: active.length, cu: active.reduce((n, e) => n + e.cu, 0) };
  // A short list is read whole (cheaper than the steps, validatorWalk.ts): the active set's part of it is
  // what its own walk would have cost at the optimum, at most what the sync spent.
  const endpoint = STREAMS['pn.validators'].walks;
  const n = Number((await warehouse.query(`SELECT count(*) AS n FROM pn_validators WHERE validation_status = 'active'`))[0]?.n ?? 0);
  const requests = Math.min(validators.length, Math.max(1, Math.ceil(n / (endpoint.maxPageSize ?? 100))));
  return { requests, cu: Math.min(validators.reduce((m, e) => m + e.cu, 0), requests * endpoint.weight) };
}

/** Which stream a logged request belongs to: the method and path template of each stream's endpoint. */
function streamOfRequest(): (e: RequestLogEntry) => string {
  const patterns = Object.values(STREAMS).map((s) => {
    // The endpoint's own path, built with a marker for every parameter (streams name no path of their own).
    const marker = 'PARAM';
    const built = s.walks.build(new Proxy({}, { get: () => marker }) as never);
    const path = built.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replaceAll(marker, '[^/]+');
    return { stream: s.name as string, method: s.walks.method as string, re: new RegExp(`^${path}$`) };
  });
  return (e) => {
    // Planning's head probe: the newest block only.
    if (/(^|&)pageSize=1(&|$)/.test(e.query) && /\/blocks$/.test(e.path)) return 'plan';
    // pn.utxos reads spends from the transaction list in ascending order (utxoWalk.ts); pn.transactions never sends sortOrder.
    if (/(^|&)sortOrder=asc(&|$)/.test(e.query) && /\/transactions$/.test(e.path) && e.path.includes('/blockchains/')) return 'pn.utxos';
    return patterns.find((p) => p.method === e.method && p.re.test(e.path))?.stream ?? 'other';
  };
}

function servedByStream(log: RequestLogEntry[]): Map<string, number> {
  const of = streamOfRequest();
  const out = new Map<string, number>();
  for (const e of log) if (e.status >= 200 && e.status < 300) out.set(of(e), (out.get(of(e)) ?? 0) + e.cu);
  return out;
}

async function run(runtime: Runtime, mode: 'backfill' | 'sync', runId: string, snapshotAt: number, concurrency: number): Promise<void> {
  const sync = runtime.deps.sync!;
  const seen = new Set<string>();
  const limit = pLimit(concurrency);
  // A batch that failed on a fatal DuckDB error is retried once the warehouse has opened its file
  // again, as the pipeline's activity retry does (its CU stays counted: the server charged it).
  const batch = async (p: PartitionSpec, attempt = 1): Promise<boolean> => {
    try {
      return (await sync.syncBatch({ partition: p, maxPages: 50, mode, runId, snapshotAt })).done;
    } catch (error) {
      if (!isFatal(error) || attempt >= 3) throw error;
      return batch(p, attempt + 1);
    }
  };
  const drain = async (p: PartitionSpec) => {
    while (!(await batch(p)));
  };
  // The pipeline's two waves: configured partitions, then those derived from what they stored.
  for (const discovered of [false, true]) {
    const fresh = (await sync.planPartitions({ discovered, runId, mode, snapshotAt })).filter((p) => !seen.has(p.id));
    fresh.forEach((p) => seen.add(p.id));
    await Promise.all(fresh.map((p) => limit(() => drain(p))));
  }
}

async function logSince(sim: BenchSimulator, from: number): Promise<{ log: RequestLogEntry[]; requests: number }> {
  const stats = await sim.stats();
  return { log: stats.log.slice(stats.log.length - (stats.requests - from)), requests: stats.requests };
}

export async function runAccounting(world: AccountingWorld, growthShare = 0.01): Promise<AccountingResult> {
  const { size, addressesPerChain } = world;
  const sim = await startBenchSimulator({ seed: world.seed, size, rateLimits: UNLIMITED });
  const tmp = tempDir('quota-accounting');
  const raw = configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: tmp.dir, addressesPerChain });
  // BENCH_QUOTA_MEMORY: DuckDB's buffer limit for this bench (the config default otherwise).
  const memoryLimit = process.env.BENCH_QUOTA_MEMORY;
  const config = resolveConfig(memoryLimit ? { ...raw, warehouse: { ...raw.warehouse, memoryLimit } } : raw, { GLACIER_DATA_DIR: tmp.dir });
  const runtime = await buildRuntime(config, createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }), {});
  try {
    let mark = (await sim.stats()).requests;
    await run(runtime, 'backfill', 'bench-backfill', 1_900_000_000, 6);
    const backfillLog = await logSince(sim, mark);
    mark = backfillLog.requests;
    const growthSteps = Math.max(1, Math.round(size.evmBlocks * growthShare));
    await fetch(`${sim.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ steps: growthSteps }) });
    await run(runtime, 'sync', 'bench-sync', 1_900_086_400, 6);
    const syncLog = await logSince(sim, mark);
    return {
      backfill: await streamCosts(runtime.warehouse, 'bench-backfill'),
      sync: await streamCosts(runtime.warehouse, 'bench-sync'),
      served: { backfill: servedByStream(backfillLog.log), sync: servedByStream(syncLog.log) },
      validatorsActive: await validatorsActiveStep(syncLog.log, runtime.warehouse),
      growthSteps,
      world,
    };
  } finally {
    await runtime.close();
    await sim.close();
    tmp.remove();
  }
}

/** Point-in-time snapshots: one walk of current state each, so a sync costs what a backfill does (why, per stream). */
export const POINT_IN_TIME = new Map<string, string>([
  ...['evm.native_balances', 'evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances', 'pn.balances', 'pn.pending_rewards', 'metrics.holders'].map(
    (s) => [s, 'point-in-time snapshot: one walk of current state'] as [string, string],
  ),
  // Each get answers the token's current owner and metadata (refreshed with the chain): current state, read whole like a balance.
  ['evm.nft_tokens', 'current state (owner, metadata time): one get per configured token'],
]);

export interface SyncShare {
  stream: string;
  backfillCu: number;
  syncCu: number;
  /** Sync CU as a percentage of the backfill's. */
  share: number;
  /** One request per partition the sync asked, as a percentage of the backfill (pn.utxos takes its spends from the run's pn.transactions walk). */
  floorShare: number;
  asked: number;
  pointInTime: boolean;
  /** pn.validators: the sync without its active step (point-in-time), as a percentage of the backfill. */
  restShare?: number;
}

export function syncShares(r: AccountingResult): SyncShare[] {
  return r.backfill
    .filter((c) => c.stream !== 'plan')
    .map((b) => {
      const s = r.sync.find((c) => c.stream === b.stream);
      const asked = s?.asked ?? 0;
      const floor = asked * (b.walks > 0 ? b.walkCu / Math.max(1, b.pages) : 0);
      return {
        stream: b.stream,
        backfillCu: b.cu,
        syncCu: s?.cu ?? 0,
        share: b.cu > 0 ? (100 * (s?.cu ?? 0)) / b.cu : 0,
        floorShare: b.cu > 0 ? (100 * floor) / b.cu : 0,
        asked,
        pointInTime: POINT_IN_TIME.has(b.stream),
        ...(b.stream === 'pn.validators' && b.cu > 0 ? { restShare: (100 * ((s?.cu ?? 0) - r.validatorsActive.cu)) / b.cu } : {}),
      };
    });
}

/** The sync shares of several worlds side by side, so a figure of one world is never read alone. */
export function printShareComparison(results: AccountingResult[], log: (line: string) => void = console.log): void {
  if (results.length < 2) return;
  const byWorld = results.map((r) => new Map(syncShares(r).map((x) => [x.stream, x])));
  const streams = [...new Set(results.flatMap((r) => syncShares(r).map((x) => x.stream)))].sort();
  log(`sync share of the backfill's CU after 1% growth, per world (target <= 5% but point-in-time snapshots):`);
  log(`  ${'stream'.padEnd(26)}${results.map((r) => r.world.name.padStart(14)).join('')}`);
  for (const s of streams) {
    const cells = byWorld.map((m) => {
      const x = m.get(s);
      return (x ? `${fmt(x.share, 1)}%` : '-').padStart(14);
    });
    log(`  ${s.padEnd(26)}${cells.join('')}${POINT_IN_TIME.has(s) ? '  (current state)' : ''}`);
    if (byWorld.some((m) => m.get(s)?.restShare !== undefined)) {
      const rest = byWorld.map((m) => {
        const x = m.get(s)?.restShare;
        return (x === undefined ? '-' : `${fmt(x, 1)}%`).padStart(14);
      });
      log(`  ${`${s} but active`.padEnd(26)}${rest.join('')}  (the active step is current state)`);
    }
  }
  const total = (cs: StreamCost[]) => cs.reduce((n, c) => n + c.cu, 0);
  log(`  ${'all streams'.padEnd(26)}${results.map((r) => `${fmt((100 * total(r.sync)) / Math.max(1, total(r.backfill)), 1)}%`.padStart(14)).join('')}`);
}

export function printAccounting(r: AccountingResult, log: (line: string) => void = console.log): void {
  const w = r.world;
  log(`world '${w.name}' (seed ${w.seed}, ${fmt(w.size.evmBlocks)} EVM blocks, ${w.size.evmAddresses} EVM addresses, ${fmt(w.size.pnTxsPerChain)} primary-network transactions per chain, ${w.size.pnAddresses} primary-network addresses; ${w.addressesPerChain} addresses per chain configured)`);
  log(`backfill, per stream (pipeline accounting; ratio = walk CU / optimum):`);
  for (const line of costTable(r.backfill).trimEnd().split('\n')) log(`  ${line}`);
  log(`cross-check, CU the simulator charged (its request log) vs the pipeline's accounting, backfill + sync:`);
  const streams = [...new Set([...r.backfill, ...r.sync].map((c) => c.stream))].sort();
  let mismatches = 0;
  for (const s of streams) {
    const mine = (r.backfill.find((c) => c.stream === s)?.cu ?? 0) + (r.sync.find((c) => c.stream === s)?.cu ?? 0);
    const served = (r.served.backfill.get(s) ?? 0) + (r.served.sync.get(s) ?? 0);
    if (mine !== served) mismatches++;
    log(`  ${s.padEnd(26)} pipeline ${fmt(mine).padStart(9)}  simulator ${fmt(served).padStart(9)}${mine === served ? '' : '  MISMATCH'}`);
  }
  const other = (r.served.backfill.get('other') ?? 0) + (r.served.sync.get('other') ?? 0);
  log(`  ${mismatches === 0 ? 'every stream agrees' : `${mismatches} streams disagree`}${other ? `; ${fmt(other)} CU on requests of no stream` : ''}`);
  log(`sync after the world grew by ${r.growthSteps} steps (1%): CU of the sync as a share of the backfill's, per stream (target <= 5% but point-in-time snapshots):`);
  let worst = 0;
  for (const row of syncShares(r)) {
    const judged = row.restShare ?? row.share;
    if (!row.pointInTime) worst = Math.max(worst, judged);
    log(
      `  ${row.stream.padEnd(26)} backfill ${fmt(row.backfillCu).padStart(9)} CU  sync ${fmt(row.syncCu).padStart(8)} CU  ${fmt(row.share, 1).padStart(6)}%  (floor ${fmt(row.floorShare, 1)}%: ${row.asked} partitions asked)` +
        `${row.pointInTime ? `  ${POINT_IN_TIME.get(row.stream)}` : row.restShare === undefined && row.share > 5 ? '  ABOVE 5%' : ''}`,
    );
    if (row.restShare !== undefined) {
      const a = r.validatorsActive;
      log(
        `    active step ${fmt(a.cu)} CU in ${a.requests} requests (point-in-time: every active validation, current state; a whole-list sync counts the active set's optimum); the rest ${fmt(row.syncCu - a.cu)} CU = ${fmt(row.restShare, 1)}% of the backfill${row.restShare > 5 ? '  ABOVE 5%' : ''}`,
      );
    }
  }
  const total = (cs: StreamCost[]) => cs.reduce((n, c) => n + c.cu, 0);
  log(`  all streams: backfill ${fmt(total(r.backfill))} CU, sync ${fmt(total(r.sync))} CU (${fmt((100 * total(r.sync)) / Math.max(1, total(r.backfill)), 1)}%); worst incremental stream ${fmt(worst, 1)}% (pn.validators: but its active step)`);
  const worstRatio = Math.max(...r.backfill.filter((c) => c.optimumCu > 0).map((c) => c.walkCu / c.optimumCu));
  log(`  CU per item vs optimum on the backfill: worst stream ${fmt(worstRatio, 3)}x (target <= 1.05x)`);
}
