/**
 * Stage-by-stage CPU of the write path (bench/writePath.ts part 2): every page of a list is fetched
 * by a client that times its own steps (fetch, lossless parse, zod validation, and a bare JSON.parse
 * of the same body beside them), then extracted into column vectors and committed a batch at a time
 * to a real DuckDB file, the commit's steps timed through the warehouse's step hooks.
 */
import { join } from 'node:path';
import { buildUrl } from '../activities/api/buildUrl.ts';
import type { Endpoint } from '../activities/api/endpoint.ts';
import { parseJsonLossless } from '../activities/api/losslessJson.ts';
import { validateResponse } from '../activities/api/validateResponse.ts';
import { STREAMS } from '../activities/streams/catalog.ts';
import { pageSizeFor } from '../activities/streams/pageSize.ts';
import { emptyBatches, type DrivenPage, type StreamClient } from '../activities/streams/streamDef.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { openWarehouse, type Warehouse } from '../activities/warehouse/index.ts';
import type { ResolvedConfig } from '../common/config.ts';
import type { Logger } from '../common/logger.ts';
import type { StreamName } from '../common/streamNames.ts';
import { arrowColumnValues, rowsToArrow } from './arrowTransit.ts';
import { createDataApiClient } from '../activities/api/index.ts';

const STAGES = ['fetch', 'parse', 'validate', 'extract', 'batch build', 'append', 'merge', 'commit'] as const;
type Stage = (typeof STAGES)[number];

export interface StageFigures {
  pages: number;
  perPage: Record<Stage, number>;
  sum: number;
  /** fetch + JSON.parse of the same bodies, per page. */
  bare: number;
  /** The former transit: the page's rows to Arrow and back to JS columns, per page. */
  arrowTransit: number;
}

interface Options {
  sim: { baseUrl: string; metricsUrl: string };
  config: ResolvedConfig;
  lists: { stream: StreamName; chain?: string; label: string }[];
  batch: number;
  dir: string;
  partitionsOf(list: { stream: StreamName; chain?: string }, plan: (input: { streams: StreamName[] }) => Promise<PartitionSpec[]>): Promise<PartitionSpec[]>;
  logger: Logger;
  rateLimitOverride: NonNullable<Parameters<typeof createDataApiClient>[0]['rateLimitOverride']>;
}

const now = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** A client that does what the real one does per call, timing each step (no retries, no rate limits: the world is local). */
function timingClient(sim: Options['sim'], ms: Record<Stage | 'bare', number>): StreamClient {
  return {
    async call<P, R>(endpoint: Endpoint<P, R>, params: P): Promise<R> {
      const built = endpoint.build(params);
      const { url, target } = buildUrl(endpoint.service === 'metrics' ? sim.metricsUrl : sim.baseUrl, built);
      let t = now();
      const response = await fetch(url, { method: endpoint.method, body: built.body === undefined ? undefined : JSON.stringify(built.body), headers: { 'content-type': 'application/json' } });
      const text = new TextDecoder().decode(await response.arrayBuffer());
      const fetched = now() - t;
      ms.fetch += fetched;
      t = now();
      JSON.parse(text);
      ms.bare += fetched + now() - t;
      t = now();
      const decoded = parseJsonLossless(text);
      ms.parse += now() - t;
      t = now();
      const valid = validateResponse(endpoint.schema, decoded, { method: endpoint.method, target });
      ms.validate += now() - t;
      return valid;
    },
  };
}

/** Times the commit's steps through the warehouse's step hooks. */
function timeCommits(warehouse: Warehouse, ms: Record<Stage | 'bare', number>): void {
  let last = 0;
  warehouse.faultHook = (step) => {
    const t = now();
    if (step.startsWith('after-batch:')) ms['batch build'] += t - last;
    else if (step.startsWith('after-append:')) ms.append += t - last;
    else if (step.startsWith('after-table:')) ms.merge += t - last;
    else if (step === 'after-commit') ms.commit += t - last;
    // before-begin .. after-begin and before-checkpoint .. before-commit: the transaction and checkpoint, counted as commit.
    else if (step === 'after-begin' || step === 'before-commit') ms.commit += t - last;
    last = now();
  };
}

export async function stageProfile(o: Options): Promise<Map<string, StageFigures>> {
  const out = new Map<string, StageFigures>();
  for (const list of o.lists) {
    const stream = STREAMS[list.stream];
    const ms: Record<Stage | 'bare', number> = { fetch: 0, parse: 0, validate: 0, extract: 0, 'batch build': 0, append: 0, merge: 0, commit: 0, bare: 0 };
    const client = timingClient(o.sim, ms);
    const warehouse = await openWarehouse(join(o.dir, `stages-${list.stream}.duckdb`));
    const planner = createSyncCore({ client: createDataApiClient({ baseUrl: o.sim.baseUrl, metricsUrl: o.sim.metricsUrl, logger: o.logger, rateLimitOverride: o.rateLimitOverride }), warehouse, config: o.config, logger: o.logger });
    const partitions = await o.partitionsOf(list, (input) => planner.planPartitions(input));
    timeCommits(warehouse, ms);
    let pages = 0;
    let arrowTransit = 0;
    let seq = 0;
    for (const partition of partitions) {
      const ctx = { partition, runId: 'bench', snapshotAt: 1_800_000_000 };
      let batches = emptyBatches(stream.tables);
      let inBatch = 0;
      const commit = async (complete: boolean) => {
        await warehouse.commitBatch([...batches.values()], { partitionId: partition.id, stream: partition.stream, pageToken: null, cursor: {}, rows: ++seq, pages: seq, complete });
        batches = emptyBatches(stream.tables);
        inBatch = 0;
      };
      let pageToken: string | null = null;
      do {
        const page: DrivenPage = await stream.fetch(client, partition, { pageToken, from: 0, pageSize: pageSizeFor(stream, o.config) });
        let t = now();
        page.extract(ctx, batches);
        ms.extract += now() - t;
        // The former path on the same page: row objects, then Arrow, then JS columns again.
        t = now();
        for (const [name, rows] of Object.entries(page.rows(ctx))) {
          const table = stream.tables.find((x) => x.name === name)!;
          const arrow = rowsToArrow(table, rows);
          for (const c of table.columns) arrowColumnValues(arrow, c.name, c.type);
        }
        arrowTransit += now() - t;
        pages++;
        if (++inBatch >= o.batch) await commit(false);
        pageToken = page.nextPageToken ?? null;
      } while (pageToken);
      if (inBatch > 0) await commit(true);
    }
    await warehouse.close();
    const perPage = Object.fromEntries(STAGES.map((s) => [s, ms[s] / pages])) as Record<Stage, number>;
    out.set(list.label, { pages, perPage, sum: STAGES.reduce((n, s) => n + perPage[s], 0), bare: ms.bare / pages, arrowTransit: arrowTransit / pages });
  }
  return out;
}
