/**
 * The pipeline: pipelineWorkflow on the embedded Temporal dev server with an in-process worker
 * (cli/session.ts openSession, no TEMPORAL_ADDRESS), backfilling the fixed stream set into a fresh
 * DuckDB file; then the Parquet export of that warehouse, timed on its own.
 *
 *   npx tsx bench/pipeline.ts          (BENCH_PARTITIONS=6, BENCH_PAGES_PER_BATCH=20)
 */
import { join } from 'node:path';
import { openSession } from '../cli/session.ts';
import { startPipeline, summarize } from '../cli/runPipeline.ts';
import { exportLake } from '../activities/lake/export.ts';
import { allTables } from '../activities/streams/catalog.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';
import { lakeOf, warehousePath } from '../worker/paths.ts';
import { countRows } from './benchWorld.ts';
import type { LoadResult } from './direct.ts';

export interface PipelineResult extends LoadResult {
  partitions: number;
  failed: number;
  /** Dev server start + worker creation (workflow bundle), not in `ms`. */
  startupMs: number;
  exportMs: number;
  exportFiles: number;
}

export async function runPipeline(config: ResolvedConfig, maxPagesPerBatch: number): Promise<PipelineResult> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', base: { component: 'bench' } });
  const { GLACIER_API_KEY } = process.env;
  delete process.env.GLACIER_API_KEY; // keyless, like bench/direct.ts: the server's headers set the budget
  const t0 = performance.now();
  const session = await openSession({ ...config, temporalAddress: undefined }, { logger });
  if (GLACIER_API_KEY !== undefined) process.env.GLACIER_API_KEY = GLACIER_API_KEY;
  const startupMs = performance.now() - t0;
  let result;
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const handle = await startPipeline(session, { mode: 'backfill', streams: config.streams, partitionConcurrency: config.partitionConcurrency, maxPagesPerBatch, exportParquet: false });
    result = await handle.result();
  } finally {
    await session.close();
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const summary = summarize(result);

  const warehouse = await openWarehouse(warehousePath(config.dataDir));
  try {
    const committed = await countRows(warehouse);
    const e0 = performance.now();
    const exported = await exportLake(warehouse, allTables(), lakeOf(config));
    const exportMs = performance.now() - e0;
    return {
      pages: summary.pages,
      rows: summary.rows,
      committedRows: committed.total,
      ms,
      cpuMs: (used.user + used.system) / 1000,
      partitions: summary.partitions,
      failed: summary.failed,
      startupMs,
      exportMs,
      exportFiles: exported.files,
    };
  } finally {
    await warehouse.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startBenchSimulator, benchConfig, tempDir, UNLIMITED, envNumber, fmt, BENCH_SIZE } = await import('./benchWorld.ts');
  const { runCeiling } = await import('./ceiling.ts');
  const sim = await startBenchSimulator({ seed: 7, size: BENCH_SIZE, rateLimits: UNLIMITED });
  const tmp = tempDir('pipeline');
  try {
    const config = benchConfig(sim, tmp.dir, { partitionConcurrency: envNumber('BENCH_PARTITIONS', 6) });
    await runCeiling(config); // warm the simulator's caches
    const r = await runPipeline(config, envNumber('BENCH_PAGES_PER_BATCH', 20));
    console.log(
      `pipeline: ${r.partitions} partitions (${r.failed} failed), ${fmt(r.pages)} pages, ${fmt(r.rows)} rows (${fmt(r.committedRows)} in DuckDB) in ${fmt(r.ms / 1000, 2)} s` +
        ` (+${fmt(r.startupMs / 1000, 1)} s start-up); Parquet export ${r.exportFiles} files in ${fmt(r.exportMs / 1000, 2)} s (${join(tmp.dir, 'parquet')})`,
    );
  } finally {
    await sim.close();
    tmp.remove();
  }
}
