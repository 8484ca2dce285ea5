import type { Logger } from '../common/logger.ts';
import type { SyncPort } from './ports.ts';
import type { BatchInput, BatchResult, CheckpointView } from '../common/activityTypes.ts';

/**
 * What one `syncBatch` activity call does: one batch, or (with `continueForMs`) batch after batch.
 *
 * Each batch commits its rows with its checkpoint in one transaction (the sync core), so a call that
 * runs several batches is as exact as several calls: a crash or a retry resumes from the last
 * committed checkpoint. What the loop saves is the orchestration between batches: each call costs a
 * workflow task, an activity task and their history events on the server, which on the bench world
 * cost about a third of the pipeline's time at one batch per call (bench/temporalShare.ts).
 */
export interface BatchRunInput extends BatchInput {
  /**
   * Keep committing batches of `maxPages` pages until the partition is done or this many
   * milliseconds have passed since the call began (checked between batches). Absent or 0: one batch.
   */
  continueForMs?: number;
}

export interface BatchRunHooks {
  logger: Logger;
  /** Aborted when the call should stop after the batch in hand (activity cancelled or timed out). */
  signal: AbortSignal;
  /** After each committed batch, with that batch's checkpoint (the activity heartbeats it). */
  committed(checkpoint: CheckpointView): void;
  /** Milliseconds for `continueForMs` (default performance.now; tests drive their own). */
  now?: () => number;
}

/**
 * Runs the batches of one call. Only the first batch's error fails the call: a later batch's error
 * ends the call with what the earlier batches committed (so the workflow counts their rows), and the
 * next call meets the error again at its first batch, where the retry policy and the quota pause
 * apply as before.
 */
export async function runBatches(sync: SyncPort, input: BatchRunInput, hooks: BatchRunHooks): Promise<BatchResult> {
  const { continueForMs = 0, ...batch } = input;
  const now = hooks.now ?? (() => performance.now());
  const started = now();
  let result = await sync.syncBatch(batch);
  hooks.committed(result.checkpoint);
  while (!result.done && now() - started < continueForMs && !hooks.signal.aborted) {
    let next: BatchResult;
    try {
      next = await sync.syncBatch(batch);
    } catch (error) {
      hooks.logger.debug({ err: error instanceof Error ? error.message : String(error), pages: result.pages }, 'batch failed after earlier batches committed; the next call meets it first');
      break;
    }
    result = { done: next.done, pages: result.pages + next.pages, rows: result.rows + next.rows, checkpoint: next.checkpoint };
    hooks.committed(result.checkpoint);
  }
  return result;
}

/**
 * At most one call walks a partition in this process at a time. A retry can start while an earlier
 * attempt still runs (the server timed it out, but its process is alive and mid-batch): the new call
 * stops the old one at its next batch boundary and waits for it, then reads the checkpoint the old
 * one left. Two walkers of one partition would otherwise commit run records twice and write the
 * checkpoint back and forth.
 */
export class PartitionTurns {
  private readonly holders = new Map<string, { stop: AbortController; ended: Promise<void> }>();

  /** Waits for the partition's turn; the returned signal aborts when a later call takes over. */
  async take(partitionId: string): Promise<{ signal: AbortSignal; superseded: boolean; release(): void }> {
    const previous = this.holders.get(partitionId);
    const stop = new AbortController();
    let end!: () => void;
    const entry = { stop, ended: new Promise<void>((resolve) => (end = resolve)) };
    this.holders.set(partitionId, entry);
    if (previous) {
      previous.stop.abort();
      await previous.ended;
    }
    return {
      signal: stop.signal,
      superseded: previous !== undefined,
      release: () => {
        if (this.holders.get(partitionId) === entry) this.holders.delete(partitionId);
        end();
      },
    };
  }
}
