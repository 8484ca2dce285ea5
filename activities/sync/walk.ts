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
    case 'range':
      if (incomplete) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: { ...prev, runId: input.runId } } };
      return { kind: 'walk', walk: { pageToken: null, cursor: { from: input.mode === 'backfill' ? rangeStart : (prev.next ?? rangeStart), runId: input.runId } } };
    case 'snapshot-merge':
    case 'snapshot-replace':
      if (incomplete && prev.runId === input.runId) return { kind: 'walk', walk: { pageToken: previous.pageToken, cursor: prev } };
      return { kind: 'walk', walk: { pageToken: null, cursor: { runId: input.runId, snapshotAt: input.snapshotAt } } };
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

const maxOf = (a: number | undefined, keys: number[]) => (keys.length === 0 ? a : Math.max(a ?? -Infinity, ...keys));

/** The walk after one fetched page, and whether the walk is complete. */
export function advanceWalk(mode: SyncMode, walk: Walk, keys: number[], nextPageToken: string | undefined): { walk: Walk; complete: boolean } {
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
      if (nextPageToken === undefined) return { complete: true, walk: { pageToken: null, cursor: { next: Math.max(c.from ?? 0, maxSeen ?? -Infinity), runId: c.runId } } };
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, maxSeen, page: (c.page ?? 0) + 1 } } };
    }
    case 'snapshot-merge':
    case 'snapshot-replace':
      // Finished: the positions go; a snapshot's counts stay (the commit that finishes it records them).
      if (nextPageToken === undefined) return { complete: true, walk: { pageToken: null, cursor: withoutPosition(c) } };
      return { complete: false, walk: { pageToken: nextPageToken, cursor: { ...c, page: (c.page ?? 0) + 1 } } };
  }
}
