/**
 * The fetch ceiling: every page of the pipeline's partitions fetched with a bare fetch + JSON.parse
 * loop (no limiter, no retries, no validation, no warehouse), the same partitions in flight and the
 * same pageSize, following nextPageToken. Each stream's own fetchPage builds the requests, so the
 * pages are exactly the ones the pipeline walks.
 *
 *   npx tsx bench/ceiling.ts            (BENCH_PARTITIONS=6, BENCH_BLOCKS=5000)
 */
import pLimit from 'p-limit';
import { buildUrl } from '../activities/api/buildUrl.ts';
import type { Endpoint } from '../activities/api/endpoint.ts';
import { STREAMS } from '../activities/streams/catalog.ts';
import { pageSizeFor } from '../activities/streams/pageSize.ts';
import type { StreamClient } from '../activities/streams/streamDef.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import type { Warehouse } from '../activities/warehouse/warehouse.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';

export interface ThroughputResult {
  items: number;
  pages: number;
  ms: number;
  cpuMs: number;
}

function bareClient(config: ResolvedConfig): StreamClient {
  return {
    async call<P, R>(endpoint: Endpoint<P, R>, params: P): Promise<R> {
      const built = endpoint.build(params);
      const { url } = buildUrl(endpoint.service === 'metrics' ? config.api.metricsUrl : config.api.baseUrl, built);
      const res = await fetch(url, built.body === undefined ? {} : { method: endpoint.method, body: JSON.stringify(built.body), headers: { 'content-type': 'application/json' } });
      const text = await res.text();
      if (!res.ok) throw new Error(`${res.status} ${url}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as R;
    },
  };
}

export async function runCeiling(config: ResolvedConfig): Promise<ThroughputResult> {
  // planPartitions needs no warehouse for the first wave.
  const core = createSyncCore({ client: bareClient(config), warehouse: undefined as unknown as Warehouse, config, logger: createLogger({ level: 'warn' }) });
  const partitions = await core.planPartitions({ streams: config.streams, discovered: false });
  const client = bareClient(config);
  const limit = pLimit(config.partitionConcurrency);
  let items = 0;
  let pages = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    partitions.map((p) =>
      limit(async () => {
        const stream = STREAMS[p.stream];
        let pageToken: string | null = null;
        const from = Number(p.params.startBlock ?? p.params.startTimestamp ?? 0);
        do {
          const page = await stream.fetch(client, p, { pageToken, from, pageSize: pageSizeFor(stream, config) });
          items += page.items;
          pages += 1;
          pageToken = page.nextPageToken ?? null;
        } while (pageToken);
      }),
    ),
  );
  const used = process.cpuUsage(cpu);
  return { items, pages, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startBenchSimulator, benchConfig, tempDir, UNLIMITED, envNumber, BENCH_SIZE, fmt } = await import('./benchWorld.ts');
  const sim = await startBenchSimulator({ seed: 7, size: BENCH_SIZE, rateLimits: UNLIMITED });
  const tmp = tempDir('ceiling');
  try {
    const config = benchConfig(sim, tmp.dir, { partitionConcurrency: envNumber('BENCH_PARTITIONS', 6) });
    const w = await runCeiling(config); // warm-up: JIT, connections, simulator caches
    console.log(`warm-up: ${fmt(w.items)} items in ${fmt(w.ms / 1000, 2)} s`);
    const r = await runCeiling(config);
    console.log(`ceiling: ${fmt(r.items)} items, ${fmt(r.pages)} pages in ${fmt(r.ms / 1000, 2)} s = ${fmt((r.items / r.ms) * 1000)} items/s (${fmt(r.cpuMs / r.pages, 2)} CPU ms/page)`);
  } finally {
    await sim.close();
    tmp.remove();
  }
}
