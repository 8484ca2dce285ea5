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
 * Each activity call costs a workflow task, an activity task and six history events; at one batch
 * per call that was about a third of the pipeline's time on the bench world (bench/temporalShare.ts).
 * Ten seconds of batches per call make it a few percent, and keep progress (the workflow's query,
 * continue-as-new checks) current to within ten seconds.
 */
export const DEFAULT_ACTIVITY_BUDGET_MS = 10_000;

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
