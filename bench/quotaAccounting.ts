/**
 * CU accounting on the bench world: a backfill of every stream through the worker's sync core, then
 * the world grows by 1% and a `sync` runs. Per stream it prints, from the pipeline's own accounting
 * (_glacier_sync_runs), CU per 1,000 items against the optimum (weight x ceil(items / largest page)
 * per walk), and the sync's CU as a share of the backfill's; and, from the simulator's request log,
 * the CU the server charged per stream, as a cross-check of that accounting.
 */
import pLimit from 'p-limit';
import { STREAMS } from '../activities/streams/catalog.ts';
import { streamCosts, type StreamCost } from '../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { configForWorld } from '../cli/demoConfig.ts';
import { costTable } from '../cli/costTable.ts';
import { WORLD_SIZES, type RequestLogEntry } from '../tools/simulator/index.ts';
import { resolveConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';
import { buildRuntime, type Runtime } from '../worker/runtime.ts';
import { UNLIMITED, fmt, startBenchSimulator, tempDir, type BenchSimulator } from './benchWorld.ts';

export interface AccountingResult {
  backfill: StreamCost[];
  sync: StreamCost[];
  /** CU the simulator charged per stream ('plan' = head probes), backfill and sync. */
  served: { backfill: Map<string, number>; sync: Map<string, number> };
  growthSteps: number;
  addressesPerChain: number;
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
  const drain = async (p: PartitionSpec) => {
    for (;;) if ((await sync.syncBatch({ partition: p, maxPages: 50, mode, runId, snapshotAt })).done) return;
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

export async function runAccounting(growthShare = 0.01, addressesPerChain = 3): Promise<AccountingResult> {
  const size = { ...WORLD_SIZES.small };
  const sim = await startBenchSimulator({ seed: 11, size, rateLimits: UNLIMITED });
  const tmp = tempDir('quota-accounting');
  const config = resolveConfig(configForWorld(sim.world, { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: tmp.dir, addressesPerChain }), { GLACIER_DATA_DIR: tmp.dir });
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
      growthSteps,
      addressesPerChain,
    };
  } finally {
    await runtime.close();
    await sim.close();
    tmp.remove();
  }
}

/** Point-in-time snapshots: one walk of current state each, so a sync costs what a backfill does. */
export const POINT_IN_TIME = new Set(['evm.native_balances', 'evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances', 'pn.balances', 'pn.pending_rewards', 'metrics.holders']);

export function printAccounting(r: AccountingResult, log: (line: string) => void = console.log): void {
  log(`backfill of the bench world ('small', seed 11, ${r.addressesPerChain} addresses per chain), per stream (pipeline accounting; ratio = walk CU / optimum):`);
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
  for (const b of r.backfill.filter((c) => c.stream !== 'plan')) {
    const s = r.sync.find((c) => c.stream === b.stream);
    const share = b.cu > 0 ? (100 * (s?.cu ?? 0)) / b.cu : 0;
    const pit = POINT_IN_TIME.has(b.stream);
    if (!pit) worst = Math.max(worst, share);
    // A sync asks each partition at least once (pn.utxos twice: new UTXOs, then spends): below that no walk can go.
    const floor = (s?.walks ?? 0) * (b.stream === 'pn.utxos' ? 2 : 1) * (b.walks > 0 ? b.walkCu / Math.max(1, b.pages) : 0);
    const floorShare = b.cu > 0 ? (100 * floor) / b.cu : 0;
    log(
      `  ${b.stream.padEnd(26)} backfill ${fmt(b.cu).padStart(9)} CU  sync ${fmt(s?.cu ?? 0).padStart(8)} CU  ${fmt(share, 1).padStart(6)}%  (floor ${fmt(floorShare, 1)}%: ${s?.walks ?? 0} partitions)` +
        `${pit ? '  point-in-time snapshot: one walk of current state' : share > 5 ? '  ABOVE 5%' : ''}`,
    );
  }
  const total = (cs: StreamCost[]) => cs.reduce((n, c) => n + c.cu, 0);
  log(`  all streams: backfill ${fmt(total(r.backfill))} CU, sync ${fmt(total(r.sync))} CU (${fmt((100 * total(r.sync)) / Math.max(1, total(r.backfill)), 1)}%); worst incremental stream ${fmt(worst, 1)}%`);
  const worstRatio = Math.max(...r.backfill.filter((c) => c.optimumCu > 0).map((c) => c.walkCu / c.optimumCu));
  log(`  CU per item vs optimum on the backfill: worst stream ${fmt(worstRatio, 3)}x (target <= 1.05x)`);
}
