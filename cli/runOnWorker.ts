import type { Workflow } from '@temporalio/client';
import type { Session } from './session.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import type * as Maintenance from '../workflows/maintenance.ts';

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

type MaintenanceWorkflows = typeof Maintenance;

/**
 * A command's whole session for one maintenance workflow: opens it (the session module, with
 * Temporal and DuckDB, and the workflows load here, when a command runs), runs the workflow on the
 * worker, closes it, and returns the result for the command to print.
 */
export async function runMaintenance<K extends keyof MaintenanceWorkflows>(
  config: ResolvedConfig,
  name: K,
  args: Parameters<MaintenanceWorkflows[K]>,
): Promise<Awaited<ReturnType<MaintenanceWorkflows[K]>>> {
  const [{ withSession }, workflows] = await Promise.all([import('./session.ts'), import('../workflows/maintenance.ts')]);
  return await withSession(config, (session) => runOnWorker(session, workflows[name], `glacier-${name.replace(/Workflow$/, '')}`, args));
}
