import {
  ActivityFailure,
  ApplicationFailure,
  continueAsNew,
  defineQuery,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { BatchInput, PartitionProgress, PartitionSpec } from '../activities/sync/types.ts';
import { QUOTA_EXHAUSTED } from '../common/failures.ts';

export interface PartitionWorkflowInput {
  partition: PartitionSpec;
  mode: BatchInput['mode'];
  runId: string;
  snapshotAt: number;
  maxPagesPerBatch: number;
  /**
   * How long one syncBatch activity keeps committing batches before it returns (default
   * DEFAULT_ACTIVITY_BUDGET_MS; 0: one batch per activity).
   */
  activityBudgetMs?: number;
  /** Carried across continue-as-new so progress stays cumulative for this run. */
  carried?: { rows: number; pages: number; quotaPauses: number };
}

export interface PartitionWorkflowResult extends PartitionProgress {
  quotaPauses: number;
}

export const partitionProgressQuery = defineQuery<PartitionWorkflowResult>('progress');

/**
 * One batch per activity call by default. A budget (ms) lets one call commit batch after batch:
 * fewer activities and workflow tasks (Temporal actions, dev-server CPU), but on a quiet machine
 * the bench world's pipeline / direct was 0.91-0.94 at one batch per call against 0.83-0.89 with a
 * 10 s budget (`npm run bench:temporal`, two rounds): the critical path is one long partition, and
 * the loop's own bookkeeping lengthens it. `backfill`/`sync --activity-budget <ms>` sets it per run.
 */
export const DEFAULT_ACTIVITY_BUDGET_MS = 0;

const { syncBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

function quotaResetAt(error: unknown): number | undefined {
  if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) return undefined;
  if (error.cause.type !== QUOTA_EXHAUSTED) return undefined;
  const [resetAt] = (error.cause.details ?? []) as string[];
  const at = Date.parse(resetAt);
  return Number.isFinite(at) ? at : Date.now() + 60_000;
}

/**
 * Walks one partition: loops the batch activity (each batch commits rows and checkpoint together),
 * sleeps durably through an exhausted quota, and continues-as-new when history grows large. The
 * warehouse checkpoint is authoritative, so a new run or a retry resumes exactly where it stopped.
 */
export async function partitionWorkflow(input: PartitionWorkflowInput): Promise<PartitionWorkflowResult> {
  const progress: PartitionWorkflowResult = {
    partitionId: input.partition.id,
    stream: input.partition.stream,
    rows: input.carried?.rows ?? 0,
    pages: input.carried?.pages ?? 0,
    quotaPauses: input.carried?.quotaPauses ?? 0,
    done: false,
  };
  setHandler(partitionProgressQuery, () => progress);

  for (;;) {
    try {
      const result = await syncBatch({
        partition: input.partition,
        maxPages: input.maxPagesPerBatch,
        mode: input.mode,
        runId: input.runId,
        snapshotAt: input.snapshotAt,
        continueForMs: input.activityBudgetMs ?? DEFAULT_ACTIVITY_BUDGET_MS,
      });
      progress.rows += result.rows;
      progress.pages += result.pages;
      if (result.done) {
        progress.done = true;
        return progress;
      }
    } catch (error) {
      const resetAt = quotaResetAt(error);
      if (resetAt === undefined) throw error;
      // The daily quota is spent: wait for its reset inside Temporal (survives restarts), then go on.
      progress.quotaPauses += 1;
      progress.pausedUntil = new Date(resetAt).toISOString();
      await sleep(Math.max(1000, resetAt - Date.now()));
      progress.pausedUntil = undefined;
    }
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof partitionWorkflow>({
        ...input,
        carried: { rows: progress.rows, pages: progress.pages, quotaPauses: progress.quotaPauses },
      });
    }
  }
}
