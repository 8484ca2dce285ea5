import { endpoints } from '../api/endpoints/index.ts';
import type { TransactionDetail } from '../api/schemas/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import type { WalkCursor } from '../../common/activityTypes.ts';
import { compact, union, type OwnCursor } from './ownCursor.ts';
import type { FetchState, StreamClient, StreamPage } from './streamDef.ts';

/**
 * How evm.transaction_details walks its configured hashes so that a sync costs what changed.
 *
 * A transaction detail is one get per hash (no list to page through), and the transaction it
 * describes is mined and final (Avalanche blocks are final): its fields, logs, transfers and
 * internal calls never change. So a complete walk's hashes are kept in the cursor (`final`), and a
 * sync asks only for hashes outside it: the ones added to the config since. A backfill reads every
 * hash again. The page token is the index of the next hash to ask for.
 *
 * One field is not the transaction's: networkTokenDetails.currentPrice is the token's price when the
 * detail was read. It stays as of the walk that first read the hash (a backfill refreshes it); the
 * historical price at the transaction's time is the one that belongs to it.
 */
export type DetailItem = { txHash: string; detail: TransactionDetail };

/** evm.transaction_details' own part of the cursor: hashes complete walks stored (`final`), and those this walk read (`reading`). */
export interface DetailCursor {
  final?: string[];
  reading?: string[];
}

/** What a page reports: the hash it read. */
export interface DetailMarks {
  finals: string[];
}

export const detailCursor: OwnCursor<DetailCursor, DetailMarks> = {
  carry: (stored) => compact({ final: stored.final }),
  fold: (part, marks) => ({ ...part, reading: union(part?.reading, marks.finals) }),
  settle: (part) => compact({ final: part.reading !== undefined ? union(part.final, part.reading) : part.final }),
  flatFields: ['final', 'reading'],
};

/** Index of the first hash at or after `from` that no complete walk has stored; undefined: none left. */
function nextToRead(hashes: string[], from: number, final: ReadonlySet<string>): number | undefined {
  for (let i = from; i < hashes.length; i++) if (!final.has(hashes[i])) return i;
  return undefined;
}

export async function fetchDetailPage(client: StreamClient, p: PartitionSpec, s: FetchState<DetailCursor>): Promise<StreamPage<DetailItem, DetailMarks>> {
  const hashes = p.params.txHashes as string[];
  const final = new Set(s.cursor?.stream?.final ?? []);
  const index = nextToRead(hashes, Number(s.pageToken ?? 0), final);
  // The token only ever names a hash left to read, and a walk with none left never starts (detailsUnchanged).
  if (index === undefined) throw new Error(`evm.transaction_details ${p.id}: no hash left to read at page token ${s.pageToken ?? 'start'}`);
  const txHash = hashes[index];
  const detail = await client.call(endpoints.evm.getTransaction, { chainId: String(p.params.chainId), txHash });
  const next = nextToRead(hashes, index + 1, final);
  return { items: [{ txHash, detail }], nextPageToken: next === undefined ? undefined : String(next), marks: { finals: [txHash] } };
}

/** Every configured hash stored by a complete walk: a sync has nothing to ask. */
export function detailsUnchanged(p: PartitionSpec, cursor: Readonly<WalkCursor<DetailCursor>>): boolean {
  const final = new Set(cursor.stream?.final ?? []);
  return (p.params.txHashes as string[]).every((h) => final.has(h));
}
