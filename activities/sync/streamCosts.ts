import { sqlFile } from '../warehouse/sqlFile.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';

/**
 * CU accounting per stream, from _glacier_sync_runs.
 *
 * The optimum of a walk is what its items cost at the endpoint's largest page: weight x
 * ceil(items / largest page), and at least one request (an empty list still costs one call to
 * learn that it is empty). A page the server cut short while more remained (primary-network
 * transaction pages stop at a UTXO volume, real-api-facts.md) is what the server can send at that
 * position, whatever the client asks: the optimum counts each such page as one request and packs
 * only the other items into largest pages. So the optimum is what the service can deliver, not
 * what an uncut list would cost; a client asking for small pages still shows above 1. A get endpoint (transaction detail, NFT token, balances) returns one
 * answer per call, so its optimum is weight x calls. Walk CU = pages x weight; CU beyond that
 * (retries charged again) is overhead, shown with the 429s and planning's own CU (stream 'plan').
 */
export interface CostTotals {
  /** Runs (or partition walks) counted. */
  walks: number;
  /** Of those, the walks that sent a request (a sync completes some without one: StreamDef.unchanged). */
  asked: number;
  pages: number;
  items: number;
  requests: number;
  /** CU charged, retries included. */
  cu: number;
  /** pages x weight: what the walks needed at the page size they used. */
  walkCu: number;
  optimumCu: number;
  rejected429: number;
}

export interface StreamCost extends CostTotals {
  stream: string;
  /** The run that started last for this stream. */
  lastRun?: CostTotals & { runId: string; mode: string };
}

const empty = (): CostTotals => ({ walks: 0, asked: 0, pages: 0, items: 0, requests: 0, cu: 0, walkCu: 0, optimumCu: 0, rejected429: 0 });

function add(into: CostTotals, r: Record<string, unknown>): void {
  const pages = Number(r.pages);
  const items = Number(r.items ?? 0);
  const weight = Number(r.weight ?? 0);
  const limit = r.page_limit === null || r.page_limit === undefined ? null : Number(r.page_limit);
  const cutPages = Number(r.cut_pages ?? 0);
  const cutItems = Number(r.cut_items ?? 0);
  into.walks += 1;
  if (Number(r.requests ?? 0) > 0 || pages > 0) into.asked += 1;
  into.pages += pages;
  into.items += items;
  into.requests += Number(r.requests ?? 0);
  into.cu += Number(r.cu ?? 0);
  into.rejected429 += Number(r.rejected_429 ?? 0);
  into.walkCu += pages * weight;
  into.optimumCu += pages === 0 ? 0 : limit === null ? pages * weight : Math.max(1, cutPages + Math.ceil((items - cutItems) / limit)) * weight;
}

/** Per stream: totals over every run recorded (or over `runId` alone), and the last run. */
export async function streamCosts(warehouse: Warehouse, runId?: string): Promise<StreamCost[]> {
  const rows = await warehouse.query(sqlFile('ops/runCosts.sql'), [runId ?? null]);
  const byStream = new Map<string, { total: CostTotals; runs: Map<string, CostTotals & { runId: string; mode: string }> }>();
  for (const r of rows) {
    const stream = String(r.stream);
    let entry = byStream.get(stream);
    if (!entry) byStream.set(stream, (entry = { total: empty(), runs: new Map() }));
    add(entry.total, r);
    const id = String(r.run_id);
    // Rows come in start order, so the map's key order is the order in which runs began: its last is the latest run.
    let run = entry.runs.get(id);
    if (!run) entry.runs.set(id, (run = { ...empty(), runId: id, mode: String(r.mode) }));
    add(run, r);
  }
  return [...byStream].map(([stream, { total, runs }]) => ({ stream, ...total, lastRun: [...runs.values()].at(-1) }));
}

/** CU per 1,000 items, or null when there were none. */
export const perThousand = (cu: number, items: number): number | null => (items > 0 ? (1000 * cu) / items : null);
