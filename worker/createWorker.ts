import { NativeConnection, Worker, Runtime, DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { workflowsPath } from './workflowsPath.ts';

let runtimeInstalled = false;

/** Keeps the SDK's own log lines at warn so they do not drown the pipeline's structured logs. */
export function installQuietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Already installed by another part of the process: keep that one.
  }
}

export interface CreateWorkerOptions {
  address: string;
  namespace?: string;
  taskQueue: string;
  activities: object;
  /** Pre-built workflow bundle (tests build it once per run); otherwise bundled from source. */
  workflowBundlePath?: string;
  maxConcurrentActivityTaskExecutions?: number;
  extra?: Partial<WorkerOptions>;
}

export async function createWorker(options: CreateWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  installQuietRuntime();
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue,
    activities: options.activities,
    ...(options.workflowBundlePath ? { workflowBundle: { codePath: options.workflowBundlePath } } : { workflowsPath }),
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivityTaskExecutions ?? 16,
    ...options.extra,
  });
  return { worker, connection };
}
