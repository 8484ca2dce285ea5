import { createActivities } from '../activities/index.ts';
import { createWorker } from './createWorker.ts';
import { DevServer } from './devServer.ts';
import { createLogger } from './logger.ts';
import { temporalStateDir } from './paths.ts';
import { buildRuntime } from './runtime.ts';
import { startHeapBudget } from './heapBudget.ts';
import type { ResolvedConfig } from './config.ts';

/**
 * Worker process entry: connects to TEMPORAL_ADDRESS, or starts the embedded dev server with its
 * state under the data directory, and runs until SIGINT/SIGTERM. This process owns the DuckDB file.
 */
export async function runWorkerProcess(config: ResolvedConfig): Promise<void> {
  const logger = createLogger({ base: { component: 'worker' } });
  let server: DevServer | undefined;
  let address = config.temporalAddress;
  if (!address) {
    server = await new DevServer({ dataDir: temporalStateDir(config.dataDir) }).start();
    address = server.address;
    logger.info({ address, ui: server.uiUrl }, 'embedded temporal dev server started');
  }
  const stopHeapBudget = startHeapBudget(config.worker.heapBudgetMb, logger);
  const runtime = await buildRuntime(config, logger);
  const { worker, connection } = await createWorker({
    address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    logger,
    activities: createActivities(runtime.deps),
    temporalMetricsBindAddress: runtime.metrics?.temporalBindAddress,
  });
  const stop = () => worker.shutdown();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  logger.info({ taskQueue: config.temporal.taskQueue, address }, 'worker running');
  try {
    await worker.run();
  } finally {
    stopHeapBudget();
    await connection.close();
    await runtime.close();
    await server?.stop();
  }
}
