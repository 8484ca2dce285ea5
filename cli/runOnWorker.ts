import type { Workflow } from '@temporalio/client';
import type { Session } from './session.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import type * as Maintenance from '../workflows/maintenance.ts';
import type * as Sharded from '../workflows/shards.ts';

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

/** The maintenance workflows of one warehouse, and their sharded twins that ask every shard. */
type MaintenanceWorkflows = typeof Maintenance & typeof Sharded;

/**
 * A command's whole session for one maintenance workflow: opens it (the session module, with
 * Temporal and DuckDB, and the workflows load here, when a command runs), runs the workflow on the
 * worker, closes it, and returns the result for the command to print.
 */
export async function runMaintenance<K extends keyof MaintenanceWorkflows>(
  config: ResolvedConfig,
  name: K,
  args: Parameters<MaintenanceWorkflows[K]>,
  /** Another task queue than the session's (one shard's, for a report about that shard). */
  options: { taskQueue?: string } = {},
): Promise<Awaited<ReturnType<MaintenanceWorkflows[K]>>> {
  // The launcher first: it starts the dev server before the heavy modules load (sessionLauncher.ts).
  const { withSession } = await import('./sessionLauncher.ts');
  const queue = (session: Session): Session => (options.taskQueue ? { ...session, taskQueue: options.taskQueue } : session);
  return await withSession(config, async (session) => {
    const [maintenance, sharded] = await Promise.all([import('../workflows/maintenance.ts'), import('../workflows/shards.ts')]);
    const workflows: MaintenanceWorkflows = { ...maintenance, ...sharded };
    return runOnWorker(queue(session), workflows[name], `glacier-${name.replace(/^sharded|Workflow$/g, '').toLowerCase()}`, args);
  });
}
