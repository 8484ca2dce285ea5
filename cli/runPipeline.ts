import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { partitionProgressQuery } from '../workflows/partition.ts';
import { pipelineStatusQuery, pipelineWorkflow, type PipelineInput, type PipelineStatus } from '../workflows/pipeline.ts';
import { pipelineWorkflowId } from '../workflows/workflowIds.ts';
import { createProgressView } from './progressView.ts';
import type { Session } from './session.ts';

/**
 * Starts (or re-attaches to) the pipeline workflow for a mode. The id is deterministic per task
 * queue and the conflict policy is USE_EXISTING: after a crash, running `backfill` again attaches
 * to the run in progress instead of starting a second one.
 */
export async function startPipeline(session: Session, input: PipelineInput): Promise<WorkflowHandle<typeof pipelineWorkflow>> {
  return session.client.workflow.start(pipelineWorkflow, {
    taskQueue: session.taskQueue,
    workflowId: pipelineWorkflowId(input.mode, session.taskQueue),
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
  });
}

/** Follows a pipeline run to its end, showing progress; returns its final status. */
export async function followPipeline(session: Session, handle: WorkflowHandle<typeof pipelineWorkflow>, options: { interactive?: boolean } = {}): Promise<PipelineStatus> {
  const view = createProgressView(session.logger, options.interactive);
  // Aborted when the run ends, so the command returns then, not at the poll's next tick (up to a second later).
  const stop = new AbortController();
  const poll = (async () => {
    while (!stop.signal.aborted) {
      try {
        const status = await handle.query(pipelineStatusQuery);
        // Running partitions report live row counts through their own query (a sweep's have no workflow of their own).
        await Promise.all(
          status.partitions
            .filter((p) => p.state === 'running' && p.via !== 'sweep')
            .slice(0, 32)
            .map(async (p) => {
              const live = await session.client.workflow.getHandle(p.workflowId).query(partitionProgressQuery).catch(() => undefined);
              if (live) p.rows = live.rows;
            }),
        );
        view.update(status);
      } catch {
        // The workflow may not have processed its first task yet.
      }
      await sleep(view.intervalMs, undefined, { signal: stop.signal }).catch(() => undefined);
    }
  })();
  try {
    const result = await handle.result();
    view.update(result);
    return result;
  } finally {
    stop.abort();
    await poll;
    view.stop();
  }
}

export function summarize(status: PipelineStatus): { partitions: number; done: number; failed: number; skipped: number; rows: number; pages: number } {
  const count = (state: string) => status.partitions.filter((p) => p.state === state).length;
  return {
    partitions: status.partitions.length,
    done: count('done'),
    failed: count('failed'),
    skipped: count('skipped'),
    rows: status.partitions.reduce((n, p) => n + p.rows, 0),
    pages: status.partitions.reduce((n, p) => n + p.pages, 0),
  };
}
