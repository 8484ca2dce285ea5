/**
 * Warehouse throughput: rows per second from API pages to committed DuckDB rows, per stream.
 *
 *   npx tsx bench/warehouseThroughput.ts [--size small] [--pages-per-batch 50]
 *
 * Two figures per stream:
 * - end to end: syncBatch against an in-process simulator over HTTP (client, validation, normalize,
 *   Arrow, one transaction per page with its checkpoint);
 * - warehouse only: the same pages replayed from memory, so only normalize + Arrow + commit count.
 * A last table compares commit paths for one page of blocks: appender -> staging -> INSERT OR REPLACE
 * (what the warehouse does) against a prepared INSERT OR REPLACE per row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDataApiClient, type Endpoint } from '../activities/api/index.ts';
import { STREAM_NAMES, STREAMS, tableByName } from '../activities/streams/catalog.ts';
import type { StreamClient } from '../activities/streams/streamDef.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { openWarehouse, rowsToColumns, type Row, type Warehouse } from '../activities/warehouse/index.ts';
import { resolveConfig, validateConfig } from '../worker/config.ts';
import { createLogger } from '../worker/logger.ts';
import type { StreamName } from '../common/streamNames.ts';
import { startSimulator } from '../tools/simulator/index.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: 'small' }, 'pages-per-batch': { type: 'string', default: '50' } } });
const maxPages = Number(values['pages-per-batch']);
const logger = createLogger({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'glacier-bench-wh-'));

const sim = await startSimulator({ seed: 11, size: values.size as 'small' });
const world = sim.world.describe() as unknown as {
  evm: { chains: { chainId: string }[]; addresses: string[]; contracts: { chainId: string; address: string }[]; nfts: { chainId: string; address: string; tokenId: string }[] };
  primary?: Record<string, { addresses: string[]; nodeIds: string[] }>;
};
const chainId = world.evm.chains[0].chainId;
const txs = (await sim.groundTruth('GET', `/v1/chains/${chainId}/transactions`)) as { txHash: string }[];
const config = resolveConfig(
  validateConfig({
    dataDir: dir,
    api: { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, pageSize: 100 },
    evmChains: [
      {
        chainId,
        addresses: world.evm.addresses.slice(0, 10),
        contracts: world.evm.contracts.filter((c) => c.chainId === chainId).map((c) => c.address),
        transactions: txs.slice(0, 200).map((t) => t.txHash),
        nfts: world.evm.nfts.filter((n) => n.chainId === chainId).map((n) => ({ contract: n.address, tokenId: n.tokenId })),
      },
    ],
    networks: world.primary ? [{ network: 'mainnet', addresses: world.primary.mainnet.addresses.slice(0, 10), nodeIds: world.primary.mainnet.nodeIds.slice(0, 10) }] : [],
  }),
  {},
);

const real = createDataApiClient({
  baseUrl: sim.baseUrl,
  metricsUrl: sim.metricsUrl,
  concurrency: 8,
  logger,
  rateLimitOverride: { perWindow: 1e12, perDay: 1e15, metrics: { perWindow: 1e12, perDay: 1e15 } },
});
// Every response, by request, so the second pass can replay the exact same pages without HTTP.
const recorded = new Map<string, unknown>();
const key = (endpoint: Endpoint<unknown, unknown>, params: unknown) => `${endpoint.name} ${JSON.stringify(params)}`;
const recording: StreamClient = {
  async call(endpoint, params) {
    const response = await real.call(endpoint, params);
    recorded.set(key(endpoint as Endpoint<unknown, unknown>, params), response);
    return response;
  },
};
const replaying: StreamClient = {
  call: async (endpoint, params) => {
    const response = recorded.get(key(endpoint as Endpoint<unknown, unknown>, params));
    if (response === undefined) throw new Error(`not recorded: ${key(endpoint as Endpoint<unknown, unknown>, params)}`);
    return response as never;
  },
};

async function runStream(warehouse: Warehouse, client: StreamClient, stream: StreamName, runId: string): Promise<{ partitions: number; pages: number; rows: number; ms: number }> {
  const core = createSyncCore({ client, warehouse, config, logger });
  const partitions: PartitionSpec[] = await core.planPartitions({ streams: [stream] });
  let pages = 0;
  let rows = 0;
  const t0 = performance.now();
  for (const partition of partitions) {
    for (;;) {
      const r = await core.syncBatch({ partition, maxPages, mode: 'backfill', runId, snapshotAt: 1_800_000_000 });
      pages += r.pages;
      rows += r.rows;
      if (r.done) break;
    }
  }
  return { partitions: partitions.length, pages, rows, ms: performance.now() - t0 };
}

const e2eWarehouse = await openWarehouse(join(dir, 'e2e.duckdb'));
const replayWarehouse = await openWarehouse(join(dir, 'replay.duckdb'));
const table: Record<string, string | number>[] = [];
const streams = STREAM_NAMES.filter((s) => STREAMS[s].partitions(config).length > 0);
for (const stream of streams) {
  const e2e = await runStream(e2eWarehouse, recording, stream, 'e2e');
  const replay = await runStream(replayWarehouse, replaying, stream, 'replay');
  table.push({
    stream,
    mode: STREAMS[stream].mode,
    partitions: e2e.partitions,
    pages: e2e.pages,
    rows: e2e.rows,
    'e2e rows/s': Math.round((e2e.rows / e2e.ms) * 1000),
    'warehouse rows/s': Math.round((replay.rows / replay.ms) * 1000),
    'warehouse ms/page': +(replay.ms / Math.max(1, replay.pages)).toFixed(2),
  });
}
const total = table.reduce<{ rows: number; pages: number }>((a, r) => ({ rows: a.rows + Number(r.rows), pages: a.pages + Number(r.pages) }), { rows: 0, pages: 0 });
console.log(`\nWarehouse throughput (simulator size ${values.size}, ${maxPages} pages per batch, one transaction per page; ${total.pages} pages, ${total.rows} rows)\n`);
console.table(table);

// Commit paths for the same rows: our appender path vs a prepared statement per row.
const blocks = tableByName('evm_blocks')!;
const sample = (await replayWarehouse.query('SELECT * FROM evm_blocks ORDER BY block_number LIMIT 2000')) as Row[];
const pageRows = 100;
const paths: Record<string, string | number>[] = [];
{
  const t0 = performance.now();
  for (let i = 0; i < sample.length; i += pageRows) {
    await replayWarehouse.commitBatch([rowsToColumns(blocks, sample.slice(i, i + pageRows))], {
      partitionId: 'bench/appender',
      stream: 'evm.blocks',
      pageToken: null,
      cursor: {},
      rows: i,
      pages: i / pageRows,
      complete: false,
    });
  }
  paths.push({ path: 'appender -> staging -> INSERT OR REPLACE (used)', rows: sample.length, 'rows/s': Math.round((sample.length / (performance.now() - t0)) * 1000) });
}
{
  const cols = blocks.columns.map((c) => `"${c.name}"`).join(', ');
  const marks = blocks.columns.map((_, i) => `$${i + 1}`).join(', ');
  const t0 = performance.now();
  await replayWarehouse.withWriter(async (w) => {
    const stmt = await w.prepare(`INSERT OR REPLACE INTO evm_blocks (${cols}) VALUES (${marks})`);
    for (let i = 0; i < sample.length; i += pageRows) {
      await w.run('BEGIN TRANSACTION');
      for (const row of sample.slice(i, i + pageRows)) {
        stmt.bind(blocks.columns.map((c) => (row[c.name] ?? null) as never));
        await stmt.run();
      }
      await w.run('COMMIT');
    }
  });
  paths.push({ path: 'prepared INSERT OR REPLACE per row', rows: sample.length, 'rows/s': Math.round((sample.length / (performance.now() - t0)) * 1000) });
}
console.log(`\nCommit path, evm_blocks, pages of ${pageRows} rows, one transaction per page\n`);
console.table(paths);

await e2eWarehouse.close();
await replayWarehouse.close();
await sim.close();
rmSync(dir, { recursive: true, force: true });
