/**
 * Quota, in two parts.
 *
 * 1. CU accounting (bench/quotaAccounting.ts): a backfill of every stream of the bench world, then
 *    a sync after 1% growth; per stream CU per 1,000 items against the optimum, the sync's share of
 *    the backfill's CU, and the simulator's request log as a cross-check of the pipeline's accounting.
 * 2. Quota use: the simulator enforces the free tier's compute-unit budget (fixed, clock-aligned
 * windows, simulator/http/rateLimit.ts) on one API key; the worker's runtime (API client with tier
 * 'free' and that key, DuckDB warehouse, sync core) backfills EVM streams, `partitionConcurrency`
 * partitions at once, for whole windows. Measured from the first window boundary after the start
 * (the partial first window is warm-up) over BENCH_QUOTA_SECONDS: CU answered 2xx / CU budget of
 * those windows, and the share of requests answered 429 (simulator stats).
 *
 *   npx tsx bench/quota.ts             (BENCH_QUOTA_SECONDS=120, BENCH_QUOTA_WINDOW_MS=60000;
 *                                       BENCH_QUOTA_PARTS=accounting,use to pick parts;
 *                                       BENCH_QUOTA_WORLDS=small,long-history: the accounting worlds,
 *                                       both printed, then their sync shares side by side (why two:
 *                                       bench/quotaAccounting.ts); BENCH_QUOTA_ADDRESSES overrides the
 *                                       addresses per chain of both)
 */
import pLimit from 'p-limit';
import { buildRuntime } from '../worker/runtime.ts';
import { createLogger } from '../worker/logger.ts';
import { WORLD_SIZES, type SimulatorStats } from '../tools/simulator/index.ts';
import { benchConfig, envNumber, fmt, startBenchSimulator, tempDir } from './benchWorld.ts';
import { ACCOUNTING_WORLDS, printAccounting, printShareComparison, runAccounting, type AccountingResult } from './quotaAccounting.ts';

export interface QuotaResult {
  windows: number;
  windowMs: number;
  budgetPerWindow: number;
  cuServed: number;
  requests: number;
  rejected429: number;
  pages: number;
  /** Partitions that ran out of data before the end (a world too small would understate use). */
  partitionsDone: number;
  partitions: number;
}

const KEY = 'bench-quota-free-key';
const FREE = { perMinute: 8000, perDay: 2_000_000 };

export async function runQuota(seconds: number, windowMs: number, partitionConcurrency: number, maxPagesPerBatch: number): Promise<QuotaResult> {
  const windows = Math.max(1, Math.round((seconds * 1000) / windowMs));
  const sim = await startBenchSimulator({
    seed: 5,
    // 20 addresses share the transactions, so each of the 6 listed per chain has hundreds of pages:
    // the partitions in flight must not run out of data before the measured windows end.
    size: { ...WORLD_SIZES.small, validators: 20, evmBlocks: 60_000, maxTxsPerBlock: 8, evmAddresses: 20 },
    keys: [{ key: KEY, tier: 'free' }],
    rateLimits: { budgets: { free: FREE }, windowMs },
  });
  const tmp = tempDir('quota');
  const runtime = await buildRuntime(
    benchConfig(sim, tmp.dir, { streams: ['evm.blocks', 'evm.transactions', 'evm.address_transactions', 'evm.token_transfers'], partitionConcurrency, tier: 'free', addressesPerChain: 6 }),
    createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }),
    { GLACIER_API_KEY: KEY },
  );
  try {
    const sync = runtime.deps.sync!;
    const partitions = await sync.planPartitions({});
    const runId = `bench-quota-${Date.now()}`;
    const snapshotAt = Math.floor(Date.now() / 1000);
    let stop = false;
    let pages = 0;
    let partitionsDone = 0;
    const limit = pLimit(partitionConcurrency);
    const load = Promise.all(
      partitions.map((partition) =>
        limit(async () => {
          while (!stop) {
            const r = await sync.syncBatch({ partition, maxPages: maxPagesPerBatch, mode: 'backfill', runId, snapshotAt });
            pages += r.pages;
            if (r.done) {
              partitionsDone++;
              return;
            }
          }
        }),
      ),
    );
    // Windows are aligned to the clock: measure from the next boundary for `windows` whole windows.
    const at = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));
    const first = (Math.floor(Date.now() / windowMs) + 1) * windowMs;
    await at(first + 50);
    const before: SimulatorStats = await sim.stats();
    const pagesBefore = pages;
    await at(first + windows * windowMs + 50);
    const after: SimulatorStats = await sim.stats();
    const pagesIn = pages - pagesBefore;
    stop = true;
    await load;
    // The log holds every request in order (well under its bound here): the measured ones are the slice between the snapshots.
    const measured = after.log.slice(before.requests, after.requests);
    const cuServed = measured.filter((e) => e.status >= 200 && e.status < 300).reduce((n, e) => n + e.cu, 0);
    return {
      windows,
      windowMs,
      budgetPerWindow: FREE.perMinute,
      cuServed,
      requests: after.requests - before.requests,
      rejected429: (after.byStatus[429] ?? 0) - (before.byStatus[429] ?? 0),
      pages: pagesIn,
      partitionsDone,
      partitions: partitions.length,
    };
  } finally {
    await runtime.close();
    await sim.close();
    tmp.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const parts = (process.env.BENCH_QUOTA_PARTS ?? 'accounting,use').split(',');
  if (parts.includes('accounting')) {
    const names = (process.env.BENCH_QUOTA_WORLDS ?? 'small,long-history').split(',') as (keyof typeof ACCOUNTING_WORLDS)[];
    const results: AccountingResult[] = [];
    for (const name of names) {
      const world = ACCOUNTING_WORLDS[name];
      if (!world) throw new Error(`BENCH_QUOTA_WORLDS: unknown world "${name}" (worlds: ${Object.keys(ACCOUNTING_WORLDS).join(', ')})`);
      const r = await runAccounting({ ...world, addressesPerChain: envNumber('BENCH_QUOTA_ADDRESSES', world.addressesPerChain) });
      printAccounting(r);
      results.push(r);
    }
    printShareComparison(results);
  }
  if (parts.includes('use')) await printUse();
}

async function printUse(): Promise<void> {
  const r = await runQuota(envNumber('BENCH_QUOTA_SECONDS', 120), envNumber('BENCH_QUOTA_WINDOW_MS', 60_000), envNumber('BENCH_PARTITIONS', 6), envNumber('BENCH_PAGES_PER_BATCH', 20));
  const budget = r.budgetPerWindow * r.windows;
  console.log(
    `quota: ${r.windows} x ${r.windowMs / 1000} s windows, budget ${fmt(budget)} CU, served ${fmt(r.cuServed)} CU (${fmt((100 * r.cuServed) / budget, 1)}%), ` +
      `${fmt(r.requests)} requests, ${r.rejected429} answered 429 (${fmt((100 * r.rejected429) / Math.max(1, r.requests), 2)}%), ${r.partitionsDone}/${r.partitions} partitions finished`,
  );
}
