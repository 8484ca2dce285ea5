/**
 * The sync core's CPU per page, for the four bench lists (evm.blocks, evm.transactions, P-chain
 * pn.transactions, pn.validators) of the bench world (BENCH_SIZE; the simulator runs in a child
 * process, so its CPU is not counted):
 *
 * 1. end to end: syncBatch over every partition of the list (real client over HTTP, real DuckDB
 *    file), then closing the warehouse (its last checkpoint), process CPU / pages. Uses only the sync core's public API, so the same part runs on an
 *    older checkout for a before/after figure (WRITE_PATH_STAGES=0).
 * 2. stage by stage, on the same pages: fetch, parse (lossless JSON), validate (zod), extract (column
 *    readers into column vectors), batch build (the one key dedupe), append, merge, checkpoint+commit;
 *    beside them the bare fetch + JSON.parse of each page, and the Arrow transit the write path used to
 *    take (rows -> Arrow -> JS columns) measured against the direct columns.
 *
 *   npm run bench:write-path        (BENCH_BLOCKS / BENCH_PN_TXS / BENCH_VALIDATORS size the world; WRITE_PATH_BATCH pages per batch, default 20)
 *
 * The world has 200 validators here (BENCH_VALIDATORS), not the bench world's 20: 20 validators list
 * in 2 pages, so pn.validators measured one commit's fixed costs (transaction, checkpoint, the SCD2
 * merge's statements) spread over 2 pages rather than the per-page cost. 200 list in about 15 pages,
 * one batch. The simulator computes each validator's BLS proof once (its CPU, in its own process, is
 * not counted here; it costs wall time at the first walk).
 *
 * CPU figures come from process.cpuUsage() (DuckDB's threads included); the machine is shared, so
 * compare the ratios of one run.
 */
import { join } from 'node:path';
import { createDataApiClient } from '../activities/api/index.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { openWarehouse } from '../activities/warehouse/index.ts';
import type { StreamName } from '../common/streamNames.ts';
import { createLogger } from '../worker/logger.ts';
import { BENCH_SIZE, benchConfig, envNumber, fmt, startBenchSimulator, tempDir, UNLIMITED } from './benchWorld.ts';

const LISTS: { stream: StreamName; chain?: string; label: string }[] = [
  { stream: 'evm.blocks', label: 'evm.blocks' },
  { stream: 'evm.transactions', label: 'evm.transactions' },
  { stream: 'pn.transactions', chain: 'p-chain', label: 'pn.transactions P' },
  { stream: 'pn.validators', label: 'pn.validators' },
];
const BATCH = envNumber('WRITE_PATH_BATCH', 20);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const logger = createLogger({ level: 'silent' });
const tmp = tempDir('writepath');
const sim = await startBenchSimulator({ seed: 7, size: { ...BENCH_SIZE, validators: envNumber('BENCH_VALIDATORS', 200) }, rateLimits: UNLIMITED });
const rateLimitOverride = { perWindow: 1e12, perDay: 1e15, metrics: { perWindow: 1e12, perDay: 1e15 } };
try {
  const config = benchConfig(sim, tmp.dir, { streams: LISTS.map((l) => l.stream), partitionConcurrency: 1 });
  const partitionsOf = async (list: (typeof LISTS)[number], plan: (input: { streams: StreamName[] }) => Promise<PartitionSpec[]>) =>
    (await plan({ streams: [list.stream] })).filter((p) => !list.chain || p.chain === list.chain);

  // 1. End to end: the sync core as the pipeline runs it, one partition at a time.
  const endToEnd = new Map<string, { pages: number; rows: number; ms: number }>();
  for (const list of LISTS) {
    const warehouse = await openWarehouse(join(tmp.dir, `e2e-${list.stream}.duckdb`));
    const client = createDataApiClient({ baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, concurrency: 1, logger, rateLimitOverride });
    const core = createSyncCore({ client, warehouse, config, logger });
    const partitions = await partitionsOf(list, (input) => core.planPartitions(input));
    const cpu = process.cpuUsage();
    let pages = 0;
    let rows = 0;
    for (const partition of partitions) {
      for (;;) {
        const r = await core.syncBatch({ partition, maxPages: BATCH, mode: 'backfill', runId: 'bench', snapshotAt: 1_800_000_000 });
        pages += r.pages;
        rows += r.rows;
        if (r.done) break;
      }
    }
    // Closing checkpoints what the WAL still holds: counted, so a checkpoint deferred past the last batch is not free.
    await warehouse.close();
    endToEnd.set(list.label, { pages, rows, ms: cpuMs(cpu) });
  }
  console.log(`sync core end to end (syncBatch, ${BATCH} pages per batch, CPU ms per page):`);
  for (const [label, r] of endToEnd) console.log(`  ${label.padEnd(18)} ${fmt(r.pages).padStart(5)} pages ${fmt(r.rows).padStart(8)} rows  ${fmt(r.ms / r.pages, 2).padStart(7)} ms/page`);

  // 2. Stage by stage (the current write path's own parts).
  if (process.env.WRITE_PATH_STAGES !== '0') {
    const { stageProfile } = await import('./writePathStages.ts');
    const stages = await stageProfile({ sim, config, lists: LISTS, batch: BATCH, dir: tmp.dir, partitionsOf, logger, rateLimitOverride });
    const labels = LISTS.map((l) => l.label);
    const row = (name: string, values: (string | number)[]) => console.log(`  ${name.padEnd(30)}${values.map((v) => (typeof v === 'number' ? fmt(v, 2) : v).padStart(20)).join('')}`);
    console.log(`\nstages (CPU ms per page):`);
    row('', labels);
    row('pages', labels.map((l) => fmt(stages.get(l)!.pages)));
    for (const stage of ['fetch', 'parse', 'validate', 'extract', 'batch build', 'append', 'merge', 'commit'] as const) row(stage, labels.map((l) => stages.get(l)!.perPage[stage]));
    row('sum of stages', labels.map((l) => stages.get(l)!.sum));
    row('bare fetch + JSON.parse', labels.map((l) => stages.get(l)!.bare));
    row('end to end / bare', labels.map((l) => endToEnd.get(l)!.ms / endToEnd.get(l)!.pages / stages.get(l)!.bare));
    // The whole bench world's pages together, as issue 14 states the target: the sync core's CPU over the bare fetch + parse of the same pages.
    const allPages = labels.reduce((n, l) => n + endToEnd.get(l)!.pages, 0);
    const allEndToEnd = labels.reduce((ms, l) => ms + endToEnd.get(l)!.ms, 0);
    const allBare = labels.reduce((ms, l) => ms + stages.get(l)!.bare * endToEnd.get(l)!.pages, 0);
    console.log(`\nall ${fmt(allPages)} pages: sync core ${fmt(allEndToEnd / allPages, 2)} CPU ms per page, bare fetch + JSON.parse ${fmt(allBare / allPages, 2)}: ${fmt(allEndToEnd / allBare, 2)}x (target <= 3x)`);
    console.log(`\nextract alternatives (CPU ms per page, same pages):`);
    row('direct columns (extract)', labels.map((l) => stages.get(l)!.perPage.extract + stages.get(l)!.perPage['batch build']));
    row('rows -> Arrow -> JS columns', labels.map((l) => stages.get(l)!.arrowTransit));
  }
} finally {
  await sim.close();
  tmp.remove();
}
