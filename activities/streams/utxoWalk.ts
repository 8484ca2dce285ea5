import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { Utxo } from '../api/schemas/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { compact, type OwnCursor } from './ownCursor.ts';
import type { FetchState, StreamClient, StreamPage } from './streamDef.ts';

/**
 * How pn.utxos walks an address set so that a sync costs what changed, and stays exact:
 *
 * 1. New UTXOs: the UTXO list newest first (sortBy timestamp, desc; spent ones included). New UTXOs
 *    appear on top and none ever leaves the list, so a sync stops at the page that lists the newest
 *    UTXO of the last complete walk (cursor.known). A backfill reads it all.
 * 2. Spends of UTXOs stored earlier: their rows change (consuming_*) but not their place in the
 *    list, so step 1 does not see them. Every spend is a transaction that consumes the UTXO, and the
 *    address set's transaction list from the last walk's latest event time (its part of the cursor: spendsFrom) on
 *    carries the consumed UTXOs whole: those of the set's addresses are upserted like list items.
 *    Step 2 runs only in a sync that has both marks; its pages carry `spends:` tokens.
 *
 * When the run also walks pn.transactions (planning sets params.spendsFromTransactions), step 2 is
 * that stream's walk: the set's address partition reads the same new transactions, and storing them
 * marks the UTXOs they consume spent in pn_utxos (sql/ops/propagateUtxoSpends.sql), whichever of the
 * two walks commits first (step 1 lists a UTXO in its current state, spent or not). So such a sync
 * reads step 1 only, and keeps spendsFrom where it was: a later run without pn.transactions reads
 * the spends from there, never from a time the transactions walk may not have reached.
 */
const SPENDS = 'spends:';

/**
 * pn.utxos' own part of the cursor: the latest event time this walk saw (eventsMax), which becomes
 * the next sync's lower bound of step 2 (spendsFrom) when the walk completes.
 */
export interface UtxoCursor {
  spendsFrom?: number;
  eventsMax?: number;
}

/** What a page reports: the latest event time it showed. */
export interface UtxoMarks {
  eventsMax?: number;
}

export const utxoCursor: OwnCursor<UtxoCursor, UtxoMarks> = {
  carry: (stored) => compact({ spendsFrom: stored.spendsFrom }),
  fold: (part, marks) => (marks.eventsMax === undefined ? { ...part } : { ...part, eventsMax: Math.max(part?.eventsMax ?? marks.eventsMax, marks.eventsMax) }),
  settle: (part) => {
    const bounds = [part.spendsFrom, part.eventsMax].filter((t): t is number => t !== undefined);
    return compact({ spendsFrom: bounds.length ? Math.max(...bounds) : undefined });
  },
  flatFields: ['spendsFrom', 'eventsMax'],
};

const eventTime = (u: Utxo): number => Math.max(Number(u.blockTimestamp ?? u.timestamp ?? 0), Number(u.consumingBlockTimestamp ?? u.consumingTxTimestamp ?? 0));

export async function fetchUtxoPage(client: StreamClient, p: PartitionSpec, s: FetchState<UtxoCursor>): Promise<StreamPage<Utxo, UtxoMarks>> {
  const c = s.cursor ?? {};
  const own = c.stream ?? {};
  const chain = { network: p.params.network as Network, blockchainId: String(p.params.blockchainId) };
  const addresses = p.params.addresses as string[];
  if (s.pageToken?.startsWith(SPENDS)) {
    const endpoint = endpoints.primaryNetwork.listTransactions;
    const token = s.pageToken.slice(SPENDS.length);
    const r = await client.call(endpoint, {
      ...chain,
      addresses,
      startTimestamp: own.spendsFrom,
      sortOrder: 'asc',
      pageSize: Math.min(s.pageSize, endpoint.maxPageSize),
      pageToken: token === '' ? undefined : token,
    });
    const set = new Set(addresses.map((a) => a.replace(/^[PX]-/, '')));
    const consumed = new Map<string, Utxo>();
    let eventsMax: number | undefined;
    for (const t of r.transactions) {
      const at = Number(t.blockTimestamp ?? t.timestamp ?? NaN);
      if (Number.isFinite(at)) eventsMax = Math.max(eventsMax ?? at, at);
      for (const u of (t.consumedUtxos ?? []) as Utxo[]) if (u.addresses?.some((a) => set.has(a))) consumed.set(u.utxoId, u);
    }
    return { items: [...consumed.values()], nextPageToken: r.nextPageToken ? `${SPENDS}${r.nextPageToken}` : undefined, marks: { eventsMax } };
  }
  const r = await client.call(endpoints.primaryNetwork.listUtxosV2, {
    ...chain,
    addresses,
    includeSpent: true,
    sortBy: 'timestamp',
    sortOrder: 'desc',
    pageSize: s.pageSize,
    pageToken: s.pageToken ?? undefined,
  });
  const viaTransactions = p.params.spendsFromTransactions === true && c.known !== undefined;
  const eventsMax = r.utxos.length && !viaTransactions ? Math.max(...r.utxos.map(eventTime)) : undefined;
  const newest = r.utxos[0]?.utxoId;
  const marks = { eventsMax };
  const reachedKnown = c.known !== undefined && r.utxos.some((u) => u.utxoId === c.known);
  if (!reachedKnown && r.nextPageToken) return { items: r.utxos, nextPageToken: r.nextPageToken, newest, marks };
  // Step 1 is done: a sync with a lower bound goes on to the spends, anything else ends here.
  const spends = !viaTransactions && c.known !== undefined && own.spendsFrom !== undefined;
  return { items: r.utxos, nextPageToken: spends ? SPENDS : undefined, newest, marks };
}
