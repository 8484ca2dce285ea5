import { NativeConnection, Worker, Runtime, DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { ensureWorkflowBundle } from './workflowBundle.ts';
import { createLogger, type Logger } from './logger.ts';

let runtimeInstalled = false;

/**
 * Routes the SDK's own log lines into our pino logger (one JSON line each, same redaction) at
 * warn and above. Activity failures the pipeline handles (quota pauses, retried 5xx) are logged by
 * the activity layer with context; the SDK's copy would only repeat them, so they go to debug.
 */
export function installQuietRuntime(logger?: Logger, metricsBindAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdkLogger = (logger ?? createLogger()).child({ component: 'temporal-sdk' });
  try {
    Runtime.install({
      // Temporal's own SDK metrics (worker slots, poll and task latencies…), appended to the worker's /metrics.
      ...(metricsBindAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsBindAddress } } } } : {}),
      logger: new DefaultLogger('WARN', (entry) => {
        const { error, ...meta } = (entry.meta ?? {}) as Record<string, unknown>;
        const fields = { ...meta, err: error instanceof Error ? { message: error.message } : error };
        // A shard worker's workflow-only worker on the shared queue registers no activities on purpose.
        const repeated = entry.message === 'Activity failed' || entry.message === 'Workflow failed' || entry.message.startsWith('No activities registered');
        if (repeated) sdkLogger.debug(fields, entry.message);
        else if (entry.level === 'ERROR') sdkLogger.error(fields, entry.message);
        else sdkLogger.warn(fields, entry.message);
      }),
    });
  } catch {
    // Already installed by another part of the process: keep that one.
  }
}

export interface CreateWorkerOptions {
  address: string;
  namespace?: string;
  taskQueue: string;
  activities: object;
  /** Pre-built workflow bundle (tests build it once per run); otherwise the cached one (worker/workflowBundle.ts). */
  workflowBundlePath?: string;
  maxConcurrentActivityTaskExecutions?: number;
  extra?: Partial<WorkerOptions>;
  logger?: Logger;
  /** Where Temporal's Runtime serves its Prometheus metrics (worker/metrics.ts); only the first install counts. */
  temporalMetricsBindAddress?: string;
}

export async function createWorker(options: CreateWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  installQuietRuntime(options.logger, options.temporalMetricsBindAddress);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue,
    activities: options.activities,
    workflowBundle: { codePath: options.workflowBundlePath ?? (await ensureWorkflowBundle()) },
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivityTaskExecutions ?? 16,
    ...options.extra,
  });
  return { worker, connection };
}
