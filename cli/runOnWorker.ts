import type { Workflow } from '@temporalio/client';
import type { Session } from './session.ts';

/**
 * Runs a short maintenance workflow (status, export, verify) to completion on the session's task
 * queue, so the worker that owns the DuckDB file does the work. Ids are unique per call.
 */
export function runOnWorker<W extends Workflow>(session: Session, workflow: W, idPrefix: string, args: Parameters<W>): Promise<Awaited<ReturnType<W>>> {
  return session.client.workflow.execute(workflow, {
    taskQueue: session.taskQueue,
    workflowId: `${idPrefix}-${Date.now()}`,
    args,
  } as never) as Promise<Awaited<ReturnType<W>>>;
}
