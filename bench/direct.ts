/**
 * The pipeline's activities without Temporal: the worker's real runtime (API client, DuckDB
 * warehouse, sync core) and a syncBatch loop per partition, `partitionConcurrency` partitions at once
 * (p-limit), the same maxPagesPerBatch, under the worker's heap budget (worker/heapBudget.ts: the
 * worker's memory policy, which the pipeline's in-process worker runs under too). The difference to
 * bench/pipeline.ts is orchestration alone.
 *
 *   npx tsx bench/direct.ts            (BENCH_PARTITIONS=6, BENCH_PAGES_PER_BATCH=20)
 */
import pLimit from 'p-limit';
import { buildRuntime } from '../worker/runtime.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';
import { startHeapBudget } from '../worker/heapBudget.ts';
import { countRows } from './benchWorld.ts';

export interface LoadResult {
  pages: number;
  rows: number;
  /** Rows counted in the warehouse afterwards. */
  committedRows: number;
  ms: number;
  cpuMs: number;
}

/** `heapBudget: false` runs without the worker's heap budget (V8 collects when it likes; more RSS, fewer full collections). */
export async function runDirect(config: ResolvedConfig, maxPagesPerBatch: number, options: { heapBudget?: boolean } = {}): Promise<LoadResult> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn' });
  const stopHeapBudget = options.heapBudget === false ? () => undefined : startHeapBudget(config.worker.heapBudgetMb, logger);
  // No API key: the keyless budget until the server's ratelimit headers announce the real one.
  const runtime = await buildRuntime(config, logger, {});
  try {
    const sync = runtime.deps.sync!;
    const runId = `bench-direct-${Date.now()}`;
    const snapshotAt = Math.floor(Date.now() / 1000);
    const partitions = await sync.planPartitions({ streams: config.streams, discovered: false });
    const limit = pLimit(config.partitionConcurrency);
    let pages = 0;
    let rows = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      partitions.map((partition) =>
        limit(async () => {
          for (;;) {
            const r = await sync.syncBatch({ partition, maxPages: maxPagesPerBatch, mode: 'backfill', runId, snapshotAt });
            pages += r.pages;
            rows += r.rows;
            if (r.done) return;
          }
        }),
      ),
    );
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const committed = await countRows(runtime.warehouse);
    return { pages, rows, committedRows: committed.total, ms, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    stopHeapBudget();
    await runtime.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startBenchSimulator, benchConfig, tempDir, UNLIMITED, envNumber, fmt, BENCH_SIZE } = await import('./benchWorld.ts');
  const { runCeiling } = await import('./ceiling.ts');
  const sim = await startBenchSimulator({ seed: 7, size: BENCH_SIZE, rateLimits: UNLIMITED });
  const tmp = tempDir('direct');
  try {
    const config = benchConfig(sim, tmp.dir, { partitionConcurrency: envNumber('BENCH_PARTITIONS', 6) });
    await runCeiling(config); // warm the simulator's caches
    const r = await runDirect(config, envNumber('BENCH_PAGES_PER_BATCH', 20));
    console.log(`direct: ${fmt(r.pages)} pages, ${fmt(r.rows)} rows (${fmt(r.committedRows)} in DuckDB) in ${fmt(r.ms / 1000, 2)} s, ${fmt(r.cpuMs / r.pages, 2)} CPU ms/page`);
  } finally {
    await sim.close();
    tmp.remove();
  }
}
