import type { BatchInput, CheckpointView, SyncMode } from './types.ts';

/**
 * The walk state machine of each sync mode, as pure functions over the durable checkpoint, so the
 * rules are readable in one place and testable without I/O.
 *
 * - descending-until-known: cursor { hwm, walkTop }. A walk starts at the newest page and ends when
 *   a page reaches below the high-water mark (or the list ends). Only then is hwm raised to the walk's
 *   top; until then the top rides in walkTop, so an interrupted walk resumes (page token) or restarts
 *   (from the top) without ever skipping the stretch between the old hwm and the new top.
 * - range: cursor { from, maxSeen }. A walk lists [from, end); when it ends, the next walk starts at
 *   the highest key seen (inclusive: overlap is harmless under upserts, a gap is not).
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
 */

export interface WalkCursor {
  runId?: string;
  /** descending-until-known */
  hwm?: number;
  walkTop?: number;
  /** descending-until-known: this walk ignores hwm (backfill) */
  full?: boolean;
  /** range */
  from?: number;
  maxSeen?: number;
  next?: number;
  /** range: the walk covered a range with an end (endBlock/endTimestamp), so once complete it is final */
  closed?: boolean;
  /** snapshots */
  snapshotAt?: number;
  /** Pages this walk has read since it started (or restarted): the position of its next request. */
  page?: number;
  /**
   * The position at which this walk last restarted on a rejected page token. A second rejection at the
   * same position is not a stale token (the walk got there afresh): it fails instead of looping.
   */
  staleAt?: number;
  /** snapshot-replace: rows and pages this walk has committed so far (recorded when it finishes). */
  walkRows?: number;
  walkPages?: number;
  /** snapshot-merge until known: newest item of the last complete walk (`top`), carried by the next walk as `known` */
  top?: string;
  known?: string;
  /** snapshot-merge until known: the identity of this walk's newest item */
  newest?: string;
  /**
   * Streams that also walk what changed below the mark (pn.utxos: spends of old UTXOs, from the
   * address transaction list): the latest event time seen by this walk (eventsMax), which becomes
   * the next sync's lower bound (spendsFrom) when the walk completes.
   */
  eventsMax?: number;
  spendsFrom?: number;
  /**
   * Streams whose sync reads what can still change (pn.validators): items still open at the last
   * complete walk (`watch`) and the newest final item per kind (`tops`); this walk's own, as pages
   * report them, in `collected` and `firsts` (first one wins).
   */
  watch?: string[];
  tops?: Record<string, string>;
  collected?: string[];
  firsts?: Record<string, string>;
  /** Items a whole-list walk read (`listed` while walking, `size` once complete): lets a stream pick the cheaper walk. */
  listed?: number;
  size?: number;
  /**
   * Get streams whose answers are final (evm.transaction_details: a mined transaction): the keys
   * complete walks have stored (`final`), and those this walk read so far (`reading`, joined into
   * `final` when it completes). A sync asks only for keys outside `final`; a backfill asks for all.
   */
  final?: string[];
  reading?: string[];
}

export interface Walk {
  pageToken: string | null;
  cursor: WalkCursor;
}

export type WalkStart = { kind: 'done' } | { kind: 'walk'; walk: Walk };

/** Where a batch starts: resume the stored walk, start a new one, or nothing to do for this run. */
export function startWalk(mode: SyncMode, previous: CheckpointView | undefined, input: BatchInput, rangeStart: number): WalkStart {
  const prev = (previous?.cursor ?? {}) as WalkCursor;
  if (previous?.complete && prev.runId === input.runId) return { kind: 'done' };
  const incomplete = previous !== undefined && !previous.complete;
  switch (mode) {
    case 'descending-until-known':
      if (incomplete) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: { ...prev, runId: input.runId } } };
      return { kind: 'walk', walk: { pageToken: null, cursor: { hwm: prev.hwm, runId: input.runId, full: input.mode === 'backfill' || prev.hwm === undefined } } };
    case 'range': {
      if (incomplete) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: { ...prev, runId: input.runId } } };
      // A closed range (it had its end when its last walk began) walked to the end has nothing new: the chain is final below the head.
      if (input.mode === 'sync' && previous?.complete && prev.closed) return { kind: 'done' };
      const closed = input.partition.params.endBlock !== undefined || input.partition.params.endTimestamp !== undefined;
      return { kind: 'walk', walk: { pageToken: null, cursor: defined({ from: input.mode === 'backfill' ? rangeStart : (prev.next ?? rangeStart), runId: input.runId, closed: closed || undefined }) } };
    }
    case 'snapshot-merge':
    case 'snapshot-replace':
      if (incomplete && prev.runId === input.runId) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: prev } };
      {
        // The newest item of the last complete walk: kept by an unfinished walk as `known`.
        const known = input.mode === 'backfill' ? undefined : previous?.complete ? prev.top : prev.known;
        const backfill = input.mode === 'backfill';
        const carried = backfill ? {} : { spendsFrom: prev.spendsFrom, watch: prev.watch, tops: prev.tops, size: prev.size, final: prev.final };
        return { kind: 'walk', walk: { pageToken: null, cursor: defined({ runId: input.runId, snapshotAt: input.snapshotAt, known, ...carried }) } };
      }
  }
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
  return rest;
}

/** The cursor without undefined fields (it is stored as JSON and compared in tests). */
const defined = (c: WalkCursor): WalkCursor => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as WalkCursor;

const maxOf = (a: number | undefined, keys: number[]) => (keys.length === 0 ? a : Math.max(a ?? -Infinity, ...keys));

/**
 * The walk after one fetched page, and whether the walk is complete. `ids`: identities of the
 * page's items, in list order (only for streams with StreamDef.identity).
 */
export function advanceWalk(mode: SyncMode, walk: Walk, keys: number[], nextPageToken: string | undefined, ids: string[] = []): { walk: Walk; complete: boolean } {
  const c = walk.cursor;
  switch (mode) {
    case 'descending-until-known': {
      const walkTop = maxOf(c.walkTop, keys);
      const met = !c.full && c.hwm !== undefined && keys.some((k) => k < c.hwm!);
      if (met || nextPageToken === undefined) {
        const hwm = maxOf(c.hwm, walkTop === undefined ? [] : [walkTop]);
        return { complete: true, walk: { pageToken: null, cursor: { hwm, runId: c.runId } } };
      }
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, walkTop, page: (c.page ?? 0) + 1 } } };
    }
    case 'range': {
      const maxSeen = maxOf(c.maxSeen, keys);
      if (nextPageToken === undefined) return { complete: true, walk: { pageToken: null, cursor: defined({ next: Math.max(c.from ?? 0, maxSeen ?? -Infinity), runId: c.runId, closed: c.closed }) } };
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, maxSeen, page: (c.page ?? 0) + 1 } } };
    }
    case 'snapshot-merge': {
      const newest = c.newest ?? ids[0];
      if (nextPageToken === undefined || (c.known !== undefined && ids.includes(c.known))) {
        const top = newest ?? c.known;
        const spendsFrom = maxOf(c.spendsFrom, c.eventsMax === undefined ? [] : [c.eventsMax]);
        const tops = c.firsts !== undefined ? { ...c.tops, ...c.firsts } : c.tops;
        const watch = c.collected ?? c.watch;
        const size = c.listed ?? c.size;
        const final = c.reading !== undefined ? [...new Set([...(c.final ?? []), ...c.reading])] : c.final;
        return { complete: true, walk: { pageToken: null, cursor: defined({ runId: c.runId, snapshotAt: c.snapshotAt, top, spendsFrom, watch, tops, size, final }) } };
      }
      return { complete: false, walk: { pageToken: nextPageToken, cursor: defined({ ...c, newest, page: (c.page ?? 0) + 1 }) } };
    }
    case 'snapshot-replace':
      // Finished: the positions go; a snapshot's counts stay (the commit that finishes it records them).
      if (nextPageToken === undefined) return { complete: true, walk: { pageToken: null, cursor: withoutPosition(c) } };
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, page: (c.page ?? 0) + 1 } } };
  }
}
