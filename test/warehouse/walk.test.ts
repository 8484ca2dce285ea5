import { describe, expect, it } from 'vitest';
import type { BatchInput, CheckpointView } from '../../activities/sync/types.ts';
import type { OwnCursor } from '../../activities/streams/ownCursor.ts';
import { advanceWalk, countWalk, foldMarks, MARK_IDS, mayRestartWalk, readCursor, restartWalk, startWalk, storedPart, walkPosition, type Walk } from '../../activities/sync/walk.ts';

/** The walk state machine of each sync mode (pure). */

const input = (over: Partial<BatchInput> = {}): BatchInput => ({ partition: { stream: 'evm.blocks', id: 'p', params: {} }, maxPages: 1, mode: 'sync', runId: 'r2', snapshotAt: 2, ...over });
const cp = (over: Partial<CheckpointView>): CheckpointView => ({ partitionId: 'p', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: 0, pages: 0, complete: true, updatedAt: '', ...over });

describe('descending-until-known', () => {
  it('first walk is full; the mark is raised to the walk top only when the walk ends', () => {
    const s = startWalk('descending-until-known', undefined, input(), 0);
    expect(s).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { hwm: undefined, runId: 'r2', full: true } } });
    if (s.kind !== 'walk') return;
    const a = advanceWalk('descending-until-known', s.walk, [99, 98], 't1');
    expect(a).toEqual({ complete: false, walk: { pageToken: 't1', cursor: { hwm: undefined, runId: 'r2', full: true, walkTop: 99, page: 1 } } });
    const b = advanceWalk('descending-until-known', a.walk, [97], undefined);
    expect(b).toEqual({ complete: true, walk: { pageToken: null, cursor: { hwm: 99, runId: 'r2' } } });
  });

  it('an incremental walk stops at the first page reaching below the old mark', () => {
    const s = startWalk('descending-until-known', cp({ cursor: { hwm: 50, runId: 'r1' } }), input(), 0);
    if (s.kind !== 'walk') throw new Error();
    expect(s.walk.cursor.full).toBe(false);
    const a = advanceWalk('descending-until-known', s.walk, [60, 55], 't1');
    expect(a.complete).toBe(false);
    expect(a.walk.cursor).toMatchObject({ hwm: 50, walkTop: 60 });
    const b = advanceWalk('descending-until-known', a.walk, [52, 49], 't2');
    expect(b).toEqual({ complete: true, walk: { pageToken: null, cursor: { hwm: 60, runId: 'r2' } } });
  });

  it('backfill ignores the mark; an interrupted walk resumes with its token; a restart keeps the cursor', () => {
    const s = startWalk('descending-until-known', cp({ cursor: { hwm: 50 } }), input({ mode: 'backfill' }), 0);
    if (s.kind !== 'walk') throw new Error();
    expect(advanceWalk('descending-until-known', s.walk, [49], 't').complete).toBe(false);
    const resumed = startWalk('descending-until-known', cp({ complete: false, pageToken: 't9', cursor: { hwm: 50, walkTop: 70 } }), input(), 0);
    expect(resumed).toEqual({ kind: 'walk', walk: { pageToken: 't9', cursor: { hwm: 50, walkTop: 70, runId: 'r2' } } });
    if (resumed.kind !== 'walk') return;
    // A checkpoint without a position (stored before positions were counted): position unknown.
    expect(restartWalk(resumed.walk)).toEqual({ pageToken: null, cursor: { hwm: 50, walkTop: 70, runId: 'r2', page: 0, staleAt: -1 } });
  });

  it('names the items at its top (streams with an identity), so the next sync knows which items at the mark are stored', () => {
    const s = startWalk('descending-until-known', undefined, input({ mode: 'backfill' }), 0);
    if (s.kind !== 'walk') throw new Error();
    expect(storedPart('descending-until-known', s.walk.cursor)).toBeUndefined();
    // Keys repeat (timestamps): the top key 99 spills over onto the second page.
    const a = advanceWalk('descending-until-known', s.walk, [99, 99], 't1', [], undefined, [[99, 'x'], [99, 'y']]);
    expect(a.walk.cursor).toMatchObject({ walkTop: 99, topIds: ['x', 'y'] });
    const b = advanceWalk('descending-until-known', a.walk, [99, 98], undefined, [], undefined, [[99, 'z'], [98, 'w']]);
    expect(b).toEqual({ complete: true, walk: { pageToken: null, cursor: { hwm: 99, markIds: ['x', 'y', 'z'], runId: 'r2' } } });

    // The next sync carries them: below the mark is stored, and at it the named items.
    const next = startWalk('descending-until-known', cp({ cursor: { ...b.walk.cursor } }), input({ runId: 'r3' }), 0);
    if (next.kind !== 'walk') throw new Error();
    expect(storedPart('descending-until-known', next.walk.cursor)).toEqual({ below: 99, at: ['x', 'y', 'z'] });
    // Nothing new but an item listed since at the same key: the mark names it too.
    const same = advanceWalk('descending-until-known', next.walk, [99, 99, 98], 't', [], undefined, [[99, 'v'], [99, 'x'], [98, 'w']]);
    expect(same.walk.cursor).toEqual({ hwm: 99, markIds: ['x', 'y', 'z', 'v'], runId: 'r3' });
    // New items above: the mark moves and names the items at the new top only.
    const up = advanceWalk('descending-until-known', next.walk, [101, 100, 98], 't', [], undefined, [[101, 'n'], [100, 'm'], [98, 'w']]);
    expect(up.walk.cursor).toEqual({ hwm: 101, markIds: ['n'], runId: 'r3' });
    // An empty list leaves the mark and its names.
    expect(advanceWalk('descending-until-known', next.walk, [], undefined).walk.cursor).toEqual({ hwm: 99, markIds: ['x', 'y', 'z'], runId: 'r3' });
  });

  it('a cursor without names (written before them, or a stream without identity) stores nothing at the mark; the names are capped', () => {
    expect(storedPart('descending-until-known', { hwm: 50, runId: 'r1' })).toEqual({ below: 50 });
    const s = startWalk('descending-until-known', cp({ cursor: { hwm: 50, runId: 'r1' } }), input(), 0);
    if (s.kind !== 'walk') throw new Error();
    expect(s.walk.cursor).toEqual({ hwm: 50, runId: 'r2', full: false });
    expect(advanceWalk('descending-until-known', s.walk, [52, 49], undefined).walk.cursor).toEqual({ hwm: 52, runId: 'r2' });
    // A block of many transactions: the first MARK_IDS are named, the others are written again next time.
    const many = Array.from({ length: MARK_IDS + 5 }, (_, i): [number, string] => [60, `t${i}`]);
    const big = advanceWalk('descending-until-known', s.walk, [...many.map(([k]) => k), 49], undefined, [], undefined, many);
    expect(big.walk.cursor.markIds).toEqual(many.slice(0, MARK_IDS).map(([, id]) => id));
    // Ranges and snapshot-replace never leave anything out; snapshot-merge from its known item.
    expect(storedPart('range', { from: 5, runId: 'r' })).toBeUndefined();
    expect(storedPart('snapshot-replace', { snapshotAt: 1 })).toBeUndefined();
    expect(storedPart('snapshot-merge', { snapshotAt: 1, known: 'k' })).toEqual({ from: 'k' });
    expect(storedPart('snapshot-merge', { snapshotAt: 1 })).toBeUndefined();
  });

  it('a finished walk of the same run is not walked again', () => {
    expect(startWalk('descending-until-known', cp({ cursor: { hwm: 5, runId: 'r2' } }), input(), 0)).toEqual({ kind: 'done' });
  });
});

describe('range', () => {
  it('starts at the configured start, then at the highest key seen', () => {
    const s = startWalk('range', undefined, input(), 1000);
    if (s.kind !== 'walk') throw new Error();
    expect(s.walk.cursor.from).toBe(1000);
    const a = advanceWalk('range', s.walk, [1500, 1200], 't');
    const b = advanceWalk('range', a.walk, [1700], undefined);
    expect(b).toEqual({ complete: true, walk: { pageToken: null, cursor: { next: 1700, runId: 'r2' } } });
    const again = startWalk('range', cp({ cursor: { ...b.walk.cursor }, complete: true }), input({ runId: 'r3' }), 1000);
    expect(again.kind === 'walk' && again.walk.cursor.from).toBe(1700);
    const backfill = startWalk('range', cp({ cursor: { ...b.walk.cursor } }), input({ runId: 'r3', mode: 'backfill' }), 1000);
    expect(backfill.kind === 'walk' && backfill.walk.cursor.from).toBe(1000);
  });

  it('a closed range walked to its end is not asked again by a sync; the open head range is', () => {
    const closedInput = input({ partition: { stream: 'evm.token_transfers', id: 'r', params: { startBlock: 1000, endBlock: 2000 } } });
    const s = startWalk('range', undefined, closedInput, 1000);
    if (s.kind !== 'walk') throw new Error();
    const done = advanceWalk('range', s.walk, [1900], undefined);
    expect(done.walk.cursor.closed).toBe(true);
    expect(startWalk('range', cp({ cursor: { ...done.walk.cursor } }), { ...closedInput, runId: 'r3' }, 1000)).toEqual({ kind: 'done' });
    expect(startWalk('range', cp({ cursor: { ...done.walk.cursor } }), { ...closedInput, runId: 'r3', mode: 'backfill' }, 1000).kind).toBe('walk');
    // The head range (no end yet) keeps following the chain; when it gains an end, one more walk closes it.
    const open = advanceWalk('range', s.walk.cursor.closed ? { ...s.walk, cursor: { from: 1000, runId: 'r2' } } : s.walk, [1900], undefined);
    expect(startWalk('range', cp({ cursor: { ...open.walk.cursor } }), { ...closedInput, runId: 'r3' }, 1000).kind).toBe('walk');
  });

  it('names the items it read at the key the next walk starts from, and that walk does not write them again', () => {
    const s = startWalk('range', undefined, input(), 1000);
    if (s.kind !== 'walk') throw new Error();
    expect(storedPart('range', s.walk.cursor)).toBeUndefined();
    const a = advanceWalk('range', s.walk, [1200, 1700], 't', [], undefined, [[1200, 'x'], [1700, 'a']]);
    const b = advanceWalk('range', a.walk, [1700], undefined, [], undefined, [[1700, 'b']]);
    expect(b).toEqual({ complete: true, walk: { pageToken: null, cursor: { next: 1700, markIds: ['a', 'b'], runId: 'r2' } } });
    const night = startWalk('range', cp({ cursor: { ...b.walk.cursor } }), input({ runId: 'r3' }), 1000);
    if (night.kind !== 'walk') throw new Error();
    expect(night.walk.cursor).toEqual({ from: 1700, markIds: ['a', 'b'], runId: 'r3' });
    // Items at 1700 the last walk read are stored; another item at 1700, and anything above, is new.
    expect(storedPart('range', night.walk.cursor)).toEqual({ below: 1700, at: ['a', 'b'] });
    // A night that finds nothing above the mark keeps its names, with any new item at that key.
    const quiet = advanceWalk('range', night.walk, [1700], undefined, [], undefined, [[1700, 'c']]);
    expect(quiet.walk.cursor).toEqual({ next: 1700, markIds: ['a', 'b', 'c'], runId: 'r3' });
    const empty = advanceWalk('range', night.walk, [], undefined);
    expect(empty.walk.cursor).toEqual({ next: 1700, markIds: ['a', 'b'], runId: 'r3' });
    // A higher key names only its own items; a backfill starts without names.
    const higher = advanceWalk('range', night.walk, [1700, 1800], undefined, [], undefined, [[1700, 'a'], [1800, 'd']]);
    expect(higher.walk.cursor).toEqual({ next: 1800, markIds: ['d'], runId: 'r3' });
    const backfill = startWalk('range', cp({ cursor: { ...b.walk.cursor } }), input({ runId: 'r3', mode: 'backfill' }), 1000);
    expect(backfill.kind === 'walk' && backfill.walk.cursor).toEqual({ from: 1000, runId: 'r3' });
  });
});

describe('snapshots', () => {
  it('re-read each run; an unfinished walk of an earlier run is abandoned, of this run resumed', () => {
    expect(startWalk('snapshot-replace', cp({ cursor: { runId: 'r1', snapshotAt: 1 } }), input(), 0)).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } } });
    expect(startWalk('snapshot-merge', cp({ complete: false, pageToken: 'x', cursor: { runId: 'r1', snapshotAt: 1 } }), input(), 0)).toEqual({
      kind: 'walk',
      walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } },
    });
    expect(startWalk('snapshot-merge', cp({ complete: false, pageToken: 'x', cursor: { runId: 'r2', snapshotAt: 2 } }), input(), 0)).toEqual({
      kind: 'walk',
      walk: { pageToken: 'x', cursor: { runId: 'r2', snapshotAt: 2 } },
    });
    const w = { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } };
    expect(advanceWalk('snapshot-merge', w, [], 'n')).toEqual({ complete: false, walk: { pageToken: 'n', cursor: { ...w.cursor, page: 1 } } });
    expect(advanceWalk('snapshot-merge', w, [], undefined).complete).toBe(true);
  });

  it('newest-first until known: a sync stops at the page listing the last complete walk\'s newest item; a backfill reads to the end', () => {
    // First walk: no mark; it ends at the list end and remembers its newest item.
    const first = startWalk('snapshot-merge', undefined, input(), 0);
    if (first.kind !== 'walk') throw new Error();
    const p1 = advanceWalk('snapshot-merge', first.walk, [], 'n', ['c', 'b']);
    expect(p1).toEqual({ complete: false, walk: { pageToken: 'n', cursor: { runId: 'r2', snapshotAt: 2, newest: 'c', page: 1 } } });
    const done = advanceWalk('snapshot-merge', p1.walk, [], undefined, ['a']);
    expect(done).toEqual({ complete: true, walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, top: 'c' } } });
    // Next sync: new items e, d on top; the page listing c ends the walk, and e is the new mark.
    const next = startWalk('snapshot-merge', cp({ cursor: { ...done.walk.cursor } }), input({ runId: 'r3', snapshotAt: 3 }), 0);
    if (next.kind !== 'walk') throw new Error();
    expect(next.walk.cursor.known).toBe('c');
    const q1 = advanceWalk('snapshot-merge', next.walk, [], 'n', ['e', 'd']);
    expect(q1.complete).toBe(false);
    expect(advanceWalk('snapshot-merge', q1.walk, [], 'n2', ['c', 'b'])).toEqual({ complete: true, walk: { pageToken: null, cursor: { runId: 'r3', snapshotAt: 3, top: 'e' } } });
    // An unfinished walk keeps the old mark for the next run; a backfill has none.
    const after = startWalk('snapshot-merge', cp({ complete: false, pageToken: 'n', cursor: { ...q1.walk.cursor } }), input({ runId: 'r4' }), 0);
    expect(after.kind === 'walk' && after.walk.cursor.known).toBe('c');
    const backfill = startWalk('snapshot-merge', cp({ cursor: { ...done.walk.cursor } }), input({ mode: 'backfill', runId: 'r5' }), 0);
    if (backfill.kind !== 'walk') throw new Error();
    expect(advanceWalk('snapshot-merge', backfill.walk, [], 'n', ['c']).complete).toBe(false);
  });

  it('snapshot-replace counts the rows of a walk across batches; a new walk or a restart counts from zero', () => {
    const resumed = startWalk('snapshot-replace', cp({ complete: false, pageToken: 'x', cursor: { runId: 'r2', snapshotAt: 2, walkRows: 5, walkPages: 1 } }), input(), 0);
    expect(resumed).toEqual({ kind: 'walk', walk: { pageToken: 'x', cursor: { runId: 'r2', snapshotAt: 2, walkRows: 5, walkPages: 1 } } });
    if (resumed.kind !== 'walk') return;
    expect(countWalk(resumed.walk.cursor, 0, 2)).toEqual({ runId: 'r2', snapshotAt: 2, walkRows: 5, walkPages: 3 });
    expect(countWalk({ runId: 'r2', snapshotAt: 2 }, 0, 1)).toEqual({ runId: 'r2', snapshotAt: 2, walkRows: 0, walkPages: 1 });
    // An abandoned walk's counts do not carry into the next run's walk.
    expect(startWalk('snapshot-replace', cp({ complete: false, pageToken: 'x', cursor: { runId: 'r1', snapshotAt: 1, walkRows: 5, walkPages: 1 } }), input(), 0)).toEqual({
      kind: 'walk',
      walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } },
    });
    expect(restartWalk(resumed.walk)).toEqual({ pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, walkRows: 0, walkPages: 0, page: 0, staleAt: -1 } });
  });

  it('snapshot-replace: a sync walk takes the last digest only from a complete checkpoint; a restart drops its own; a finished walk keeps its digest', () => {
    const complete = cp({ cursor: { runId: 'r1', snapshotAt: 1, walkRows: 5, walkPages: 1, digest: 'd1' } });
    expect(startWalk('snapshot-replace', complete, input(), 0)).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, lastDigest: 'd1' } } });
    // A backfill, or a walk after one that committed pages and never finished: no last digest.
    expect(startWalk('snapshot-replace', complete, input({ mode: 'backfill' }), 0)).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } } });
    const abandoned = cp({ complete: false, pageToken: 'x', cursor: { runId: 'r1', snapshotAt: 1, walkRows: 5, walkPages: 1, digest: 'd0', lastDigest: 'd1' } });
    expect(startWalk('snapshot-replace', abandoned, input(), 0)).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2 } } });
    const walking: Walk = { pageToken: 'x', cursor: { runId: 'r2', snapshotAt: 2, walkRows: 5, walkPages: 1, digest: 'd2', lastDigest: 'd1', page: 1 } };
    expect(restartWalk(walking)).toEqual({ pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, walkRows: 0, walkPages: 0, lastDigest: 'd1', page: 0, staleAt: 1 } });
    expect(advanceWalk('snapshot-replace', walking, [], undefined)).toEqual({ complete: true, walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, walkRows: 5, walkPages: 1, digest: 'd2' } } });
  });
});

describe('a rejected page token restarts a walk once per position', () => {
  const walkTo = (pages: number): Walk => {
    let w: Walk = { pageToken: null, cursor: { from: 0, runId: 'r2' } };
    for (let i = 0; i < pages; i++) w = advanceWalk('range', w, [i], `t${i + 1}`).walk;
    return w;
  };

  it('counts positions durably in the cursor; the first page of a walk carries no token, so it never restarts', () => {
    expect(walkPosition(walkTo(0))).toBe(0);
    expect(mayRestartWalk(walkTo(0))).toBe(false);
    expect(walkPosition(walkTo(3))).toBe(3);
    expect(mayRestartWalk(walkTo(3))).toBe(true);
  });

  it('a second rejection at the same position does not restart again; one at another position does', () => {
    const restarted = restartWalk(walkTo(3));
    expect(restarted).toMatchObject({ pageToken: null, cursor: { page: 0, staleAt: 3 } });
    let w = restarted;
    for (let i = 0; i < 3; i++) w = advanceWalk('range', w, [i], `u${i + 1}`).walk;
    expect(walkPosition(w)).toBe(3);
    expect(mayRestartWalk(w)).toBe(false);
    const further = advanceWalk('range', w, [3], 'u4').walk;
    expect(mayRestartWalk(further)).toBe(true);
    expect(mayRestartWalk(advanceWalk('range', restarted, [0], 'u1').walk)).toBe(true);
  });

  it('a walk resumed from a checkpoint without a position may restart, then counts from its new start', () => {
    const resumed: Walk = { pageToken: 'old', cursor: { from: 0, runId: 'r2' } };
    expect(mayRestartWalk(resumed)).toBe(true);
    const restarted = restartWalk(resumed);
    expect(restarted.cursor).toMatchObject({ page: 0, staleAt: -1 });
  });

  it('a finished walk forgets its positions', () => {
    const done = advanceWalk('range', restartWalk(walkTo(2)), [9], undefined);
    expect(done.walk.cursor).toEqual({ next: 9, runId: 'r2' });
  });
});

describe("a stream's own part of the cursor", () => {
  // A stream that counts the items of its walk and keeps the count of the last complete one.
  const counting: OwnCursor<{ seen?: number; last?: number }, { items: number }> = {
    carry: (stored) => ({ last: stored.last }),
    fold: (part, marks) => ({ ...part, seen: (part?.seen ?? 0) + marks.items }),
    settle: (part) => ({ last: part.seen }),
    flatFields: ['seen', 'last'],
  };

  it('is carried into a sync walk, folded page by page, settled at the end; a backfill starts without it', () => {
    const stored = cp({ cursor: { runId: 'r1', snapshotAt: 1, top: 'a', stream: { last: 5, seen: 5 } } });
    const s = startWalk('snapshot-merge', stored, input(), 0, counting);
    expect(s).toEqual({ kind: 'walk', walk: { pageToken: null, cursor: { runId: 'r2', snapshotAt: 2, known: 'a', stream: { last: 5 } } } });
    if (s.kind !== 'walk') return;
    const page = { ...s.walk, cursor: foldMarks(s.walk.cursor, 'b', { items: 3 }, counting) };
    expect(page.cursor).toMatchObject({ newest: 'b', stream: { last: 5, seen: 3 } });
    const done = advanceWalk('snapshot-merge', page, [], undefined, ['b'], counting);
    expect(done.walk.cursor).toEqual({ runId: 'r2', snapshotAt: 2, top: 'b', stream: { last: 3 } });
    const backfill = startWalk('snapshot-merge', stored, input({ mode: 'backfill' }), 0, counting);
    expect(backfill.kind === 'walk' && backfill.walk.cursor.stream).toBe(undefined);
  });

  it('is read from the flat shape release 0.1.0 stored, and left alone when already in its place', () => {
    expect(readCursor({ runId: 'r1', known: 'a', seen: 2, last: 7 }, counting)).toEqual({ runId: 'r1', known: 'a', stream: { seen: 2, last: 7 } });
    expect(readCursor({ runId: 'r1', stream: { last: 7 } }, counting)).toEqual({ runId: 'r1', stream: { last: 7 } });
    expect(readCursor({ runId: 'r1', seen: 2 })).toEqual({ runId: 'r1', seen: 2 });
    const resumed = startWalk('snapshot-merge', cp({ complete: false, pageToken: 't', cursor: { runId: 'r2', snapshotAt: 2, seen: 4 } }), input(), 0, counting);
    expect(resumed).toEqual({ kind: 'walk', walk: { pageToken: 't', cursor: { runId: 'r2', snapshotAt: 2, stream: { seen: 4 } } } });
  });
});
