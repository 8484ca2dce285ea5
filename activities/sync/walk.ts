import type { BatchInput, CheckpointView, SyncMode, WalkCursor } from '../../common/activityTypes.ts';
import type { OwnCursor } from '../streams/ownCursor.ts';
import type { StoredPart } from '../streams/streamDef.ts';
import { union } from '../streams/ownCursor.ts';

export type { WalkCursor } from '../../common/activityTypes.ts';

/**
 * The walk state machine of each sync mode, as pure functions over the durable checkpoint, so the
 * rules are readable in one place and testable without I/O.
 *
 * - descending-until-known: cursor { hwm, walkTop }. A walk starts at the newest page and ends when
 *   a page reaches below the high-water mark (or the list ends). Only then is hwm raised to the walk's
 *   top; until then the top rides in walkTop, so an interrupted walk resumes (page token) or restarts
 *   (from the top) without ever skipping the stretch between the old hwm and the new top. A stream
 *   with StreamDef.identity also keeps which items at the top it read (topIds, then markIds beside
 *   hwm): the items at the mark that are stored, since keys such as timestamps repeat.
 * - range: cursor { from, maxSeen }. A walk lists [from, end); when it ends, the next walk starts at
 *   the highest key seen (inclusive: overlap is harmless under upserts, a gap is not). A stream with
 *   StreamDef.identity keeps which items at that key it read (topIds, then markIds beside next), so
 *   the next walk does not write them again (storedPart).
 * - snapshot-merge / snapshot-replace: cursor { snapshotAt }. A run re-reads the whole list; a
 *   walk of an earlier run that never finished is abandoned, not mixed into this run's snapshot.
 *   snapshot-replace also counts the walk's committed rows and pages (walkRows, walkPages), so the
 *   commit of its last page can record the finished walk, however many batches it took.
 *   A snapshot-merge stream whose list is newest-first and append-only (StreamDef.identity) walks
 *   newest-first until known: cursor { top } holds the newest item of the last complete walk, and a
 *   sync walk ends at the page that lists it (everything below it was stored by that walk). The
 *   mark is this partition's own, so an item another partition stored cannot end the walk early; an
 *   interrupted or restarted walk keeps it until a walk completes; a backfill reads to the end.
 * Every mode records the run that completed the walk, so a retried batch of a finished run is a no-op.
 *
 * Where a sync walk reaches the known part of the list, only what is new goes to the batch
 * (storedPart): the page that meets the mark is read whole for the walk (its keys, identities,
 * marks, drift), but its items below the mark, or at and after the known item, are not written
 * again. They are exactly the items the walk takes as stored by ending there: had they been on the
 * next page, it would not have read them.
 *
 * What only one stream needs rides in cursor.stream, owned by the stream (StreamDecl.cursor, an
 * OwnCursor): a new sync walk starts with what the stream carries over from the stored cursor (a
 * backfill with nothing), each page's marks are folded in by the stream, and a complete walk keeps
 * what the stream settles. This module only calls those hooks; it never reads the part.
 */

export interface Walk {
  pageToken: string | null;
  cursor: WalkCursor;
}

export type WalkStart = { kind: 'done' } | { kind: 'walk'; walk: Walk };

/**
 * A stored cursor as this release reads it. Release 0.1.0 kept a stream's own fields flat beside the
 * generic ones (the stream names them in OwnCursor.flatFields): they move into `stream`, so a
 * checkpoint or walk stored by 0.1.0 resumes where it was.
 */
export function readCursor(stored: Record<string, unknown> | undefined, own?: Pick<OwnCursor, 'flatFields'>): WalkCursor {
  const cursor: Record<string, unknown> = { ...stored };
  const flat = (own?.flatFields ?? []).filter((f) => cursor[f] !== undefined);
  if (flat.length === 0 || cursor.stream !== undefined) return cursor as WalkCursor;
  const stream = Object.fromEntries(flat.map((f) => [f, cursor[f]]));
  for (const f of flat) delete cursor[f];
  return { ...cursor, stream } as WalkCursor;
}

/** A page's marks folded into the walk cursor: the first newest item wins; the stream folds its own marks. */
export function foldMarks(cursor: WalkCursor, newest: string | undefined, marks: unknown, own?: OwnCursor): WalkCursor {
  const out = { ...cursor };
  if (out.newest === undefined && newest !== undefined) out.newest = newest;
  if (marks !== undefined && own) out.stream = own.fold(out.stream, marks);
  return out;
}

/** Where a batch starts: resume the stored walk, start a new one, or nothing to do for this run. */
export function startWalk(mode: SyncMode, previous: CheckpointView | undefined, input: BatchInput, rangeStart: number, own?: OwnCursor): WalkStart {
  const prev = readCursor(previous?.cursor, own);
  if (previous?.complete && prev.runId === input.runId) return { kind: 'done' };
  const incomplete = previous !== undefined && !previous.complete;
  // A new walk's own part: what the stream carries over from the stored cursor (a backfill: nothing).
  const carried = input.mode === 'backfill' || prev.stream === undefined ? undefined : own?.carry(prev.stream);
  const withOwn = (cursor: WalkCursor): WalkCursor => (carried === undefined ? cursor : { ...cursor, stream: carried });
  switch (mode) {
    case 'descending-until-known':
      if (incomplete) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: { ...prev, runId: input.runId } } };
      return { kind: 'walk', walk: { pageToken: null, cursor: withOwn({ hwm: prev.hwm, ...(prev.markIds ? { markIds: prev.markIds } : {}), runId: input.runId, full: input.mode === 'backfill' || prev.hwm === undefined }) } };
    case 'range': {
      if (incomplete) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: { ...prev, runId: input.runId } } };
      // A closed range (it had its end when its last walk began) walked to the end has nothing new: the chain is final below the head.
      if (input.mode === 'sync' && previous?.complete && prev.closed) return { kind: 'done' };
      const closed = input.partition.params.endBlock !== undefined || input.partition.params.endTimestamp !== undefined;
      const resumes = input.mode !== 'backfill' && prev.next !== undefined;
      return { kind: 'walk', walk: { pageToken: null, cursor: withOwn(defined({ from: resumes ? prev.next : rangeStart, markIds: resumes ? prev.markIds : undefined, runId: input.runId, closed: closed || undefined })) } };
    }
    case 'snapshot-merge':
    case 'snapshot-replace':
      if (incomplete && prev.runId === input.runId) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: prev } };
      {
        // The newest item of the last complete walk: kept by an unfinished walk as `known`.
        const known = input.mode === 'backfill' ? undefined : previous?.complete ? prev.top : prev.known;
        // The last complete walk's digest, only when nothing of the partition was committed after it: a
        // walk that committed pages and never finished changed rows that digest does not describe.
        const lastDigest = mode === 'snapshot-replace' && input.mode === 'sync' && previous?.complete ? prev.digest : undefined;
        return { kind: 'walk', walk: { pageToken: null, cursor: defined({ runId: input.runId, snapshotAt: input.snapshotAt, known, stream: carried, lastDigest }) } };
      }
  }
}

/**
 * What earlier walks of the partition stored, for a page read with this cursor: the items a sync walk
 * leaves out of its batch (StoredPart). None for a backfill or a first walk (`full`, no mark) or a
 * snapshot-replace walk (it re-reads the state on purpose).
 * - range: a walk starts at the last walk's end, so only the items at that one key are read again;
 *   those the cursor names (markIds: the last walk read them) are not written again. A quiet night
 *   re-read one or two such items per partition and merged them: 6 rows of `evm_transactions`, 22 of
 *   `evm_token_transfers`, the address sets' P-chain transactions with their UTXOs and links, about a
 *   quarter of an idle night's statement time (bench/README.md, session 25).
 * - descending-until-known: the items below the high-water mark. Every complete walk stored its list
 *   from its top down to the previous mark, so below the mark is stored (the same claim that ends
 *   the walk there). An item AT the mark is written again unless the cursor names it (markIds): a
 *   timestamp or block number is shared by items the last walk may not have listed yet. An
 *   interrupted walk keeps its mark until it completes, so its resumed or restarted pages are cut at
 *   the same place.
 * - snapshot-merge with StreamDecl.identity: the known item (the newest of the last complete walk)
 *   and everything after it in list order (the list is append-only, newest first). A stream without
 *   identity ignores it (pn.utxos and pn.validators walk their own way and write what they list).
 */
export function storedPart(mode: SyncMode, cursor: WalkCursor): StoredPart | undefined {
  if (mode === 'descending-until-known') {
    if (cursor.full || cursor.hwm === undefined) return undefined;
    return cursor.markIds?.length ? { below: cursor.hwm, at: cursor.markIds } : { below: cursor.hwm };
  }
  if (mode === 'snapshot-merge') return cursor.known !== undefined ? { from: cursor.known } : undefined;
  if (mode === 'range') return cursor.from !== undefined && cursor.markIds?.length ? { below: cursor.from, at: cursor.markIds } : undefined;
  return undefined;
}

/** Position of the walk's next request (-1: unknown, a walk stored before positions were counted). */
export function walkPosition(walk: Walk): number {
  return walk.cursor.page ?? (walk.pageToken === null ? 0 : -1);
}

/**
 * Whether a rejected page token may restart this walk: once per position. An unknown position (-1)
 * never matches, so such a walk restarts and counts from then on.
 */
export function mayRestartWalk(walk: Walk): boolean {
  const position = walkPosition(walk);
  return walk.pageToken !== null && (position < 0 || walk.cursor.staleAt !== position);
}

/**
 * The walk after an expired page token: back to its first page, keeping the durable cursor and where
 * the token was rejected. A snapshot's counts start again, since its pages are read (and upserted) again.
 */
export function restartWalk(walk: Walk): Walk {
  const cursor = { ...walk.cursor, page: 0, staleAt: walkPosition(walk) };
  if (cursor.walkRows !== undefined || cursor.walkPages !== undefined) Object.assign(cursor, { walkRows: 0, walkPages: 0 });
  // The pages are read again from the first: their digest starts again too.
  delete cursor.digest;
  return { pageToken: null, cursor };
}

/** snapshot-replace: the cursor after committing `rows` rows over `pages` more pages of the walk. */
export function countWalk(cursor: WalkCursor, rows: number, pages: number): WalkCursor {
  return { ...cursor, walkRows: (cursor.walkRows ?? 0) + rows, walkPages: (cursor.walkPages ?? 0) + pages };
}

function withoutPosition(c: WalkCursor): WalkCursor {
  const rest = { ...c };
  delete rest.page;
  delete rest.staleAt;
  delete rest.lastDigest;
  return rest;
}

/** The cursor without undefined fields (it is stored as JSON and compared in tests). */
const defined = (c: WalkCursor): WalkCursor => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as WalkCursor;

const maxOf = (a: number | undefined, keys: number[]) => (keys.length === 0 ? a : Math.max(a ?? -Infinity, ...keys));

/**
 * Identities kept of the items at one key (the walk's top, then the mark). A block of thousands of
 * transactions keeps the first ones: a list names items that are stored, not all of them, and an
 * item it leaves out is only written again.
 */
export const MARK_IDS = 100;

/** Identities of the items at `top`: those kept at `prevTop` (if the same key) and those of this page. */
function idsAt(top: number | undefined, prevTop: number | undefined, prevIds: string[] | undefined, keyed: readonly [number, string][]): string[] | undefined {
  if (top === undefined) return undefined;
  return capped(union(prevTop === top ? prevIds : undefined, keyed.filter(([k]) => k === top).map(([, id]) => id)));
}

const capped = (ids: string[]): string[] | undefined => (ids.length === 0 ? undefined : ids.slice(0, MARK_IDS));

/**
 * The identities a complete walk leaves at its new mark: every item at the top it read is stored once
 * it completes (written by it, or stored before: the old mark's own items when the top is that key).
 * A top below the new mark (or none) leaves the old mark's identities.
 */
function markIdsAt(mark: number, top: number | undefined, topIds: string[] | undefined, oldMark: number | undefined, oldIds: string[] | undefined): string[] | undefined {
  if (top !== mark) return oldIds;
  return top === oldMark ? capped(union(oldIds, topIds ?? [])) : topIds;
}

/**
 * The walk after one fetched page, and whether the walk is complete. `ids`: identities of the
 * page's items, in list order, and `keyed`: the walk-order key and identity of each item that has
 * both (only for streams with StreamDef.identity).
 */
export function advanceWalk(
  mode: SyncMode,
  walk: Walk,
  keys: number[],
  nextPageToken: string | undefined,
  ids: string[] = [],
  own?: OwnCursor,
  keyed: readonly [number, string][] = [],
): { walk: Walk; complete: boolean } {
  const c = walk.cursor;
  // What a complete walk leaves of the stream's own part for the next walk.
  const settled = () => (c.stream === undefined || own === undefined ? c.stream : own.settle(c.stream));
  switch (mode) {
    case 'descending-until-known': {
      const walkTop = maxOf(c.walkTop, keys);
      const topIds = idsAt(walkTop, c.walkTop, c.topIds, keyed);
      const met = !c.full && c.hwm !== undefined && keys.some((k) => k < c.hwm!);
      if (met || nextPageToken === undefined) {
        const hwm = maxOf(c.hwm, walkTop === undefined ? [] : [walkTop]);
        const markIds = hwm === undefined ? c.markIds : markIdsAt(hwm, walkTop, topIds, c.hwm, c.markIds);
        return { complete: true, walk: { pageToken: null, cursor: defined({ hwm, markIds, runId: c.runId, stream: settled() }) } };
      }
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, walkTop, topIds, page: (c.page ?? 0) + 1 } } };
    }
    case 'range': {
      const maxSeen = maxOf(c.maxSeen, keys);
      const topIds = idsAt(maxSeen, c.maxSeen, c.topIds, keyed);
      if (nextPageToken === undefined) {
        const next = Math.max(c.from ?? 0, maxSeen ?? -Infinity);
        const markIds = markIdsAt(next, maxSeen, topIds, c.from, c.markIds);
        return { complete: true, walk: { pageToken: null, cursor: defined({ next, markIds, runId: c.runId, closed: c.closed, stream: settled() }) } };
      }
      return { complete: false, walk: { pageToken: nextPageToken, cursor: defined({ ...c, maxSeen, topIds, page: (c.page ?? 0) + 1 }) } };
    }
    case 'snapshot-merge': {
      const newest = c.newest ?? ids[0];
      if (nextPageToken === undefined || (c.known !== undefined && ids.includes(c.known))) {
        const top = newest ?? c.known;
        return { complete: true, walk: { pageToken: null, cursor: defined({ runId: c.runId, snapshotAt: c.snapshotAt, top, stream: settled() }) } };
      }
      return { complete: false, walk: { pageToken: nextPageToken, cursor: defined({ ...c, newest, page: (c.page ?? 0) + 1 }) } };
    }
    case 'snapshot-replace':
      // Finished: the positions go; a snapshot's counts stay (the commit that finishes it records them).
      if (nextPageToken === undefined) return { complete: true, walk: { pageToken: null, cursor: defined({ ...withoutPosition(c), stream: settled() }) } };
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, page: (c.page ?? 0) + 1 } } };
  }
}
