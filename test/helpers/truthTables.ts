import type { Endpoint, ListEndpoint, QueryValue } from '../../activities/api/endpoint.ts';
import { buildUrl } from '../../activities/api/buildUrl.ts';
import { STREAMS } from '../../activities/streams/catalog.ts';
import type { StreamClient } from '../../activities/streams/streamDef.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { Warehouse } from '../../activities/warehouse/warehouse.ts';
import { versionKey, type Row, type TableDef } from '../../activities/warehouse/tableDef.ts';
import type { Simulator } from '../../tools/simulator/index.ts';
import { keyTextSql, keyTextsOf } from '../../activities/warehouse/versions.ts';
import { rowsToColumns } from '../../activities/warehouse/columnBatch.ts';
import type { DuckDBValue } from '@duckdb/node-api';

/**
 * Ground truth as warehouse rows: every partition's endpoint is answered by the simulator's
 * ground truth (all items at once, no tokens, no faults) and run through the same stream
 * normalizers, so the warehouse can be compared with it table by table, column by column.
 */
/** What ground truth needs of a simulator: in process, or a running one reached over its admin route. */
export type TruthSource = Pick<Simulator, 'baseUrl' | 'metricsUrl' | 'groundTruth'>;

/** A simulator running in another process (`glacier-etl simulator`), asked through GET /admin/truth. */
export function remoteTruthSource(baseUrl: string, metricsUrl: string): TruthSource {
  return {
    baseUrl,
    metricsUrl,
    async groundTruth(method, path, query = {}, body) {
      const url = new URL('/admin/truth', baseUrl);
      url.search = new URLSearchParams({ method, path, query: new URLSearchParams(query).toString(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).toString();
      const res = await fetch(url);
      if (!res.ok) throw new Error(`truth ${path}: HTTP ${res.status} ${await res.text()}`);
      return ((await res.json()) as { items: unknown[] }).items;
    },
  };
}

export function truthClient(sim: TruthSource): StreamClient {
  const fetchJson = async (endpoint: Endpoint<unknown, unknown>, params: unknown) => {
    const request = endpoint.build(params);
    const { url } = buildUrl(endpoint.service === 'metrics' ? sim.metricsUrl : sim.baseUrl, request);
    let res: Response;
    for (let attempt = 0; ; attempt++) {
      res = await fetch(url, {
        method: endpoint.method,
        headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
      // Tests with CU limits on: wait out the window like any polite client.
      if (res.status !== 429 || attempt >= 20) break;
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    }
    if (!res.ok) throw new Error(`truth fetch ${endpoint.name}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    async call<P, R>(endpoint: Endpoint<P, R>, params: P): Promise<R> {
      const listKey = (endpoint as unknown as ListEndpoint<never, never, string>).listKey;
      if (!listKey) return endpoint.schema.parse(await fetchJson(endpoint as Endpoint<unknown, unknown>, params));
      const request = endpoint.build(params);
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.query) as [string, QueryValue][]) {
        if (v === undefined || k === 'pageToken' || k === 'pageSize') continue;
        query[k] = Array.isArray(v) ? v.join(',') : String(v);
      }
      const items = await sim.groundTruth(endpoint.method, request.path, query, request.body);
      // Fields beside the list (nativeTokenBalance, chainInfo) come from a real first page.
      const first = await fetchJson(endpoint as Endpoint<unknown, unknown>, { ...(params as object), pageToken: undefined, pageSize: 1 });
      return endpoint.schema.parse({ ...first, [listKey]: items, nextPageToken: undefined });
    },
  };
}

/** Canonical text of a row: bigints as strings, keys sorted, chosen columns left out. */
function canonical(row: Row | Record<string, unknown>, skip: Set<string>): string {
  const keys = Object.keys(row).filter((k) => !skip.has(k)).sort();
  return JSON.stringify(keys.map((k) => [k, normalizeValue((row as Record<string, unknown>)[k])]));
}

function normalizeValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? v.toString() : v;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(normalizeValue);
  if (v && typeof v === 'object') return JSON.stringify(v);
  return v ?? null;
}

/**
 * Columns an incremental sync does not rewrite on rows that did not change, so they are not ground
 * truth of the current snapshot: last_seen_at of pn_utxos and pn_validators is the last run that listed or updated the row.
 */
const INCREMENTAL_BOOKKEEPING: Record<string, string[]> = { pn_utxos: ['last_seen_at'], pn_validators: ['last_seen_at'] };

export interface TableComparison {
  table: string;
  expected: number;
  found: number;
  /** Expected rows that are missing or differ. */
  lost: number;
  /** Rows in the warehouse that ground truth does not have (or has once but stored twice). */
  duplicated: number;
  examples: string[];
}

/** The latest-snapshot view of a snapshot table (sql/schema/020_views.sql names them so). */
export const latestView = (table: string) => `v_${table}_latest`;

/**
 * Compares the warehouse with ground truth for the given partitions. Snapshot tables are compared
 * at `snapshotAt`: a versioned one (merge 'versions') as of it (snapshot_at <= X AND (valid_to IS
 * NULL OR valid_to > X)), over the rows the given partitions answer for or ground truth lists, without
 * snapshot_at and valid_to; the validator history (SCD2) on its current rows, without its validity columns.
 * With `latest`, only the snapshot tables are compared, and through their `*_latest` views: what an
 * analyst reads as the latest snapshot must be the API's answer at `snapshotAt`, emptied ones too.
 */
export async function compareWithTruth(
  sim: TruthSource,
  /** A warehouse, or anything that reads like one (the union of several shards' files). */
  warehouse: Pick<Warehouse, 'connect'>,
  partitions: PartitionSpec[],
  ctx: { snapshotAt: number; runId?: string; latest?: boolean; /** Columns left out per table (e.g. bookkeeping an incremental sync does not rewrite). */ skip?: Record<string, string[]> },
): Promise<TableComparison[]> {
  const client = truthClient(sim);
  const expected = new Map<string, Map<string, Row>>();
  const tableDefs = new Map<string, { primaryKey: string[]; merge: string; columns: string[]; def: TableDef }>();
  for (const partition of partitions) {
    const stream = STREAMS[partition.stream];
    for (const t of stream.tables) tableDefs.set(t.name, { primaryKey: t.merge === 'versions' ? versionKey(t) : t.primaryKey, merge: t.merge, columns: t.columns.map((c) => c.name), def: t });
    // List endpoints answer in one page here; streams that page over a set themselves
    // (transaction details, NFT tokens) still hand out their own tokens.
    let pageToken: string | null = null;
    do {
      const page = await stream.fetch(client, partition, { pageToken, pageSize: 100 });
      const rows = page.rows({ partition, snapshotAt: ctx.snapshotAt, runId: ctx.runId ?? 'truth' });
      for (const [table, list] of Object.entries(rows)) {
        const def = tableDefs.get(table)!;
        const byKey = expected.get(table) ?? new Map<string, Row>();
        for (const row of list) byKey.set(JSON.stringify(def.primaryKey.map((k) => normalizeValue(row[k]))), row);
        expected.set(table, byKey);
      }
      pageToken = page.nextPageToken ?? null;
    } while (pageToken);
  }
  const out: TableComparison[] = [];
  for (const [table, def] of tableDefs) {
    const skip = new Set<string>([...(INCREMENTAL_BOOKKEEPING[table] ?? []), ...(ctx.skip?.[table] ?? [])]);
    const where: string[] = [];
    const snapshot = def.columns.includes('snapshot_at');
    if (ctx.latest && !snapshot) continue;
    const params: DuckDBValue[] = [];
    if (def.merge === 'versions') {
      skip.add('snapshot_at').add('valid_to');
      if (!ctx.latest) {
        const x = Number(ctx.snapshotAt);
        where.push(`snapshot_at <= ${x} AND (valid_to IS NULL OR valid_to > ${x})`);
        // The rows these partitions answer for (a table of other partitions too), or that ground truth lists.
        const keys = [...(expected.get(table)?.values() ?? [])].map((r) => versionKeyText(def.def, r));
        params.push(JSON.stringify(partitions.map((p) => p.params)), JSON.stringify(keys));
        where.push(`(EXISTS (SELECT 1 FROM (SELECT unnest(CAST(CAST($1 AS JSON) AS JSON[])) AS p) WHERE ${def.def.versions!.scope}) OR ${keyTextSql(def.def, 't')} IN (SELECT unnest(CAST(CAST($2 AS JSON) AS VARCHAR[]))))`);
      }
    } else if (snapshot && !ctx.latest) where.push(`snapshot_at = ${Number(ctx.snapshotAt)}`);
    if (def.merge === 'scd2') {
      where.push('valid_to IS NULL');
      skip.add('valid_from').add('valid_to');
    }
    // JSON reading keeps DECIMAL/HUGEINT exact (the JS reader turns DECIMAL into a lossy number).
    const connection = await warehouse.connect();
    const source = ctx.latest ? latestView(table) : table;
    const reader = await connection.runAndReadAll(`SELECT * FROM "${source}" AS t${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params);
    const found = reader.getRowObjectsJson() as Record<string, unknown>[];
    connection.closeSync();
    const have = found.map((r) => canonical(r, skip));
    const counts = new Map<string, number>();
    for (const h of have) counts.set(h, (counts.get(h) ?? 0) + 1);
    let lost = 0;
    const examples: string[] = [];
    const foundByKey = new Map(found.map((r) => [JSON.stringify(def.primaryKey.map((k) => normalizeValue(r[k]))), r]));
    for (const [key, row] of expected.get(table) ?? new Map<string, Row>()) {
      const w = canonical(row, skip);
      const n = counts.get(w) ?? 0;
      if (n > 0) {
        counts.set(w, n - 1);
        continue;
      }
      lost += 1;
      if (examples.length >= 3) continue;
      const stored = foundByKey.get(key);
      if (!stored) examples.push(`missing ${key}`);
      else {
        const diff = Object.keys(row).filter((c) => !skip.has(c) && JSON.stringify(normalizeValue(row[c])) !== JSON.stringify(normalizeValue(stored[c])));
        examples.push(`different ${key}: ${diff.map((c) => `${c}=${JSON.stringify(normalizeValue(stored[c]))} (truth ${JSON.stringify(normalizeValue(row[c]))})`).join(', ')}`);
      }
    }
    let duplicated = 0;
    for (const [h, n] of counts) {
      if (n > 0) {
        duplicated += n;
        if (examples.length < 6) examples.push(`unexpected: ${h.slice(0, 300)}`);
      }
    }
    out.push({ table: source, expected: expected.get(table)?.size ?? 0, found: have.length, lost, duplicated, examples });
  }
  return out;
}

/** A ground-truth row's version key as the warehouse's SQL writes it (activities/warehouse/versions.ts). */
function versionKeyText(def: TableDef, row: Row): string {
  return keyTextsOf(rowsToColumns(def, [row])).keys[0];
}
