/**
 * The write path stage by stage, without HTTP or DuckDB in the timing: every page of one stream is
 * fetched once from a simulator, then replayed three times through normalize, the per-key dedupe,
 * rowsToArrow and the read-back to DuckDB appender values. Prints milliseconds per stage.
 *
 *   npx tsx bench/writePath.ts [stream]      (default pn.transactions; BENCH_BLOCKS / BENCH_PN_TXS size the world)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataApiClient } from '../activities/api/index.ts';
import { STREAMS } from '../activities/streams/catalog.ts';
import type { StreamDef } from '../activities/streams/streamDef.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import { arrowColumnValues, rowsToArrow } from '../activities/warehouse/arrowRows.ts';
import type { Warehouse } from '../activities/warehouse/warehouse.ts';
import type { StreamName } from '../common/streamNames.ts';
import { createLogger } from '../worker/logger.ts';
import { BENCH_SIZE, benchConfig, startBenchSimulator, UNLIMITED } from './benchWorld.ts';

const name = (process.argv[2] ?? 'pn.transactions') as StreamName;
const stream = STREAMS[name] as StreamDef<unknown>;
if (!stream) throw new Error(`unknown stream ${name}`);
const logger = createLogger({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'glacier-bench-writepath-'));
const sim = await startBenchSimulator({ seed: 7, size: BENCH_SIZE, rateLimits: UNLIMITED });
try {
  const config = benchConfig(sim, dir, { partitionConcurrency: 6 });
  const client = createDataApiClient({ baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, concurrency: 8, logger, rateLimitOverride: { perWindow: 1e12, perDay: 1e15, metrics: { perWindow: 1e12, perDay: 1e15 } } });
  // Planning needs no warehouse for first-wave partitions.
  const partitions = await createSyncCore({ client, warehouse: undefined as unknown as Warehouse, config, logger }).planPartitions({ streams: [name] });
  const pages: { partition: (typeof partitions)[number]; page: Awaited<ReturnType<typeof stream.fetchPage>> }[] = [];
  for (const partition of partitions) {
    let pageToken: string | null = null;
    do {
      const page = await stream.fetchPage(client, partition, { pageToken, from: 0, pageSize: 100 });
      pages.push({ partition, page });
      pageToken = page.nextPageToken ?? null;
    } while (pageToken);
  }
  const ms: Record<string, number> = { normalize: 0, rowsToArrow: 0, 'read-back': 0 };
  const timed = <T>(stage: string, fn: () => T): T => {
    const t0 = performance.now();
    const out = fn();
    ms[stage] += performance.now() - t0;
    return out;
  };
  let rows = 0;
  for (let pass = 0; pass < 3; pass++) {
    for (const { partition, page } of pages) {
      const byTable = timed('normalize', () => stream.normalize(page as never, { partition, runId: 'bench', snapshotAt: 1 } as never));
      const tables = timed('rowsToArrow', () => stream.tables.map((t) => [t, rowsToArrow(t, byTable[t.name] ?? [])] as const));
      timed('read-back', () => tables.map(([t, table]) => t.columns.map((c) => arrowColumnValues(table, c.name, c.type))));
      for (const [, table] of tables) rows += table.numRows;
    }
  }
  console.log(`${name}: ${pages.length} pages x 3 passes, ${rows} rows: ` + Object.entries(ms).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', '));
} finally {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
