import pLimit from 'p-limit';
import type { Logger } from '../common/logger.ts';
import type { SyncPort } from './ports.ts';
import type { BatchInput, PartitionSpec } from '../common/activityTypes.ts';
import { toTemporalFailure } from './temporalFailure.ts';
import { QUOTA_EXHAUSTED } from '../common/failures.ts';
import type { PartitionTurns } from './batchRun.ts';

/**
 * A sweep: ONE batch of each of many partitions inside one activity call, `concurrency` at once.
 *
 * A night with nothing new gives every partition one batch that finds nothing; one child workflow
 * and one activity per partition for that (84 on the small world, ~1,450 history events) cost more
 * CPU on the worker and the Temporal server than the batches themselves. The sweep runs those
 * batches in-process and says, per partition, whether its walk finished. Whatever needs more than
 * the sweep gives (a walk longer than one batch, any error) goes back to the pipeline, which runs
 * that partition as its own child workflow as before: retries, the durable quota pause and error
 * recording stay there. Each batch commits rows and checkpoint together, so the child resumes
 * exactly where the sweep left the partition.
 */
export interface SweepInput {
  partitions: PartitionSpec[];
  mode: BatchInput['mode'];
  runId: string;
  snapshotAt: number;
  maxPagesPerBatch: number;
  /** Partitions walked at once (the pipeline's partitionConcurrency; the worker's sweepConcurrency replaces it). */
  concurrency: number;
}

/** What the sweep did with one partition: its batch ran (its walk finished or not), or it was left to a child workflow. */
export type SweepOutcome = { partitionId: string; done: boolean; rows: number; pages: number } | { partitionId: string; handOff: true; reason: string };

export interface SweepHooks {
  logger: Logger;
  /** Aborted when the call should start no more partitions (activity cancelled or timed out). */
  signal: AbortSignal;
  /** One partition at a time in this process (shared with syncBatch). */
  turns: PartitionTurns;
  /** Outcomes a previous attempt of this call settled (its heartbeat details): not run again. */
  settled: readonly SweepOutcome[];
  /** After each partition settles, with every outcome so far (the activity heartbeats them). */
  progress(outcomes: readonly SweepOutcome[]): void;
}

export async function runSweep(sync: SyncPort, input: SweepInput, hooks: SweepHooks): Promise<SweepOutcome[]> {
  const wanted = new Set(input.partitions.map((p) => p.id));
  const outcomes = new Map<string, SweepOutcome>();
  for (const o of hooks.settled) if (wanted.has(o.partitionId)) outcomes.set(o.partitionId, o);
  // Set once a partition met the exhausted daily quota: every later request would meet it too.
  let stopAll: string | undefined;
  const limit = pLimit(Math.max(1, input.concurrency));
  const settle = (outcome: SweepOutcome) => {
    outcomes.set(outcome.partitionId, outcome);
    hooks.progress([...outcomes.values()]);
  };
  await Promise.all(
    input.partitions
      .filter((p) => !outcomes.has(p.id))
      .map((partition) =>
        limit(async () => {
          const unstarted = stopAll ?? (hooks.signal.aborted ? 'sweep stopped' : undefined);
          if (unstarted) return settle({ partitionId: partition.id, handOff: true, reason: unstarted });
          const turn = await hooks.turns.take(partition.id);
          try {
            const result = await sync.syncBatch({ partition, maxPages: input.maxPagesPerBatch, mode: input.mode, runId: input.runId, snapshotAt: input.snapshotAt });
            settle({ partitionId: partition.id, done: result.done, rows: result.rows, pages: result.pages });
          } catch (error) {
            // Classified once, as syncBatch's would be; the child workflow meets the error again and handles it.
            const failure = toTemporalFailure(error);
            const quota = (failure as { type?: string }).type === QUOTA_EXHAUSTED;
            if (quota) stopAll = `quota exhausted: ${failure.message}`;
            hooks.logger.info({ partition: partition.id, err: failure.message }, 'sweep: partition handed off to its workflow');
            settle({ partitionId: partition.id, handOff: true, reason: failure.message });
          } finally {
            turn.release();
          }
        }),
      ),
  );
  return input.partitions.map((p) => outcomes.get(p.id)!);
}
