import { describe, expect, it } from 'vitest';
import { PartitionTurns, runBatches } from '../../activities/batchRun.ts';
import type { SyncPort } from '../../activities/ports.ts';
import type { BatchInput, BatchResult, CheckpointView } from '../../activities/sync/types.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';

/**
 * The batch loop of one syncBatch activity call, on a scripted sync port: when it stops (done,
 * time budget, abort), and what an error after committed batches does.
 */
function scripted(pagesPerBatch: number[], options: { failAt?: number; onBatch?: (call: number) => void } = {}) {
  let call = 0;
  let pages = 0;
  const checkpoint = (): CheckpointView => ({ partitionId: 'p', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: pages * 10, pages, complete: call >= pagesPerBatch.length, updatedAt: '' });
  const sync: SyncPort = {
    planPartitions: async () => [],
    readCheckpoint: async () => checkpoint(),
    async syncBatch(): Promise<BatchResult> {
      options.onBatch?.(call + 1);
      if (call === options.failAt) {
        call += 1;
        throw new Error(`batch ${call} failed`);
      }
      const n = pagesPerBatch[call++];
      pages += n;
      return { done: call >= pagesPerBatch.length, pages: n, rows: n * 10, checkpoint: checkpoint() };
    },
  };
  return { sync, calls: () => call };
}

const input: BatchInput = { partition: { stream: 'evm.blocks', id: 'p', params: {} }, maxPages: 2, mode: 'backfill', runId: 'r', snapshotAt: 1 };
const hooks = (beats: number[] = [], signal = new AbortController().signal) => ({ logger: capturedLogger('warn').logger, signal, committed: (c: CheckpointView) => beats.push(c.pages) });

describe('runBatches', () => {
  it('runs one batch without a budget, every batch to the end within one', async () => {
    const one = scripted([2, 2, 1]);
    expect(await runBatches(one.sync, input, hooks())).toMatchObject({ done: false, pages: 2, rows: 20 });
    const all = scripted([2, 2, 1]);
    const beats: number[] = [];
    expect(await runBatches(all.sync, { ...input, continueForMs: 60_000 }, hooks(beats))).toMatchObject({ done: true, pages: 5, rows: 50 });
    expect(beats).toEqual([2, 4, 5]); // a heartbeat after each commit
  });

  it('stops at the first batch boundary past the budget', async () => {
    // A clock the batches move: 30 ms each, so the 50 ms budget is past after the second.
    let clock = 0;
    const s = scripted([2, 2, 2, 2, 2, 2], { onBatch: () => (clock += 30) });
    const r = await runBatches(s.sync, { ...input, continueForMs: 50 }, { ...hooks(), now: () => clock });
    expect(r.done).toBe(false);
    expect(s.calls()).toBe(2);
    expect(r.pages).toBe(4);
  });

  it('fails on its first batch; a later failure returns what the earlier batches committed', async () => {
    await expect(runBatches(scripted([2, 2], { failAt: 0 }).sync, { ...input, continueForMs: 60_000 }, hooks())).rejects.toThrow('batch 1 failed');
    const later = scripted([2, 2, 2], { failAt: 2 });
    expect(await runBatches(later.sync, { ...input, continueForMs: 60_000 }, hooks())).toMatchObject({ done: false, pages: 4, rows: 40 });
  });

  it('stops after the batch in hand when aborted', async () => {
    // Aborted while the second batch is in hand: that batch ends, no third starts.
    const stop = new AbortController();
    const s = scripted([2, 2, 2, 2], { onBatch: (call) => call === 2 && stop.abort() });
    const r = await runBatches(s.sync, { ...input, continueForMs: 60_000 }, hooks([], stop.signal));
    expect(r.done).toBe(false);
    expect(s.calls()).toBe(2);
  });
});

describe('PartitionTurns', () => {
  it('lets one call walk a partition at a time: a later call stops the earlier one and waits for it', async () => {
    const turns = new PartitionTurns();
    const first = await turns.take('p');
    const other = await turns.take('q'); // another partition does not wait
    expect(other.superseded).toBe(false);
    let secondHasTurn = false;
    const second = turns.take('p').then((t) => ((secondHasTurn = true), t));
    await new Promise((r) => setTimeout(r, 20));
    expect(first.signal.aborted).toBe(true);
    expect(secondHasTurn).toBe(false);
    first.release();
    const t = await second;
    expect(t.superseded).toBe(true);
    expect(t.signal.aborted).toBe(false);
    t.release();
    expect((await turns.take('p')).superseded).toBe(false);
  });
});
