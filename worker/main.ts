import { createActivities } from '../activities/index.ts';
import { createWorker } from './createWorker.ts';
import { DevServer } from './devServer.ts';
import { createLogger } from './logger.ts';
import { temporalStateDir } from './paths.ts';
import { buildRuntime } from './runtime.ts';
import { startHeapBudget } from './heapBudget.ts';
import { ConfigError, type ResolvedConfig } from './config.ts';
import { shardTaskQueue } from '../common/shards.ts';

/**
 * Worker process entry: connects to TEMPORAL_ADDRESS, or starts the embedded dev server with its
 * state under the data directory, and runs until SIGINT/SIGTERM. This process owns the DuckDB file.
 */
export async function runWorkerProcess(config: ResolvedConfig): Promise<void> {
  if (config.shards.length > 0) return runShardWorker(config);
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

/**
 * A shard worker (sharded layout): owns <dataDir>/shards/<name>/warehouse.duckdb and runs two
 * Temporal workers on one cluster. On the shared task queue it runs workflow code only (any shard
 * can drive the pipeline); on its own queue it runs the activities that touch its warehouse, and
 * workflows too, so `status`, `verify` and `export` can run a maintenance workflow right there.
 */
async function runShardWorker(config: ResolvedConfig): Promise<void> {
  if (!config.shard) throw new ConfigError(`this config names shards (${config.shards.join(', ')}): start the worker with --shard <name> (or GLACIER_SHARD)`);
  if (!config.temporalAddress) throw new ConfigError(`shard ${config.shard}: shards share one Temporal cluster: set TEMPORAL_ADDRESS`);
  const logger = createLogger({ base: { component: 'worker', shard: config.shard } });
  const stopHeapBudget = startHeapBudget(config.worker.heapBudgetMb, logger);
  const runtime = await buildRuntime(config, logger);
  const ownQueue = shardTaskQueue(config.temporal.taskQueue, config.shard);
  const common = { address: config.temporalAddress, namespace: config.temporal.namespace, logger, temporalMetricsBindAddress: runtime.metrics?.temporalBindAddress };
  const shared = await createWorker({ ...common, taskQueue: config.temporal.taskQueue, activities: {} });
  const own = await createWorker({ ...common, taskQueue: ownQueue, activities: createActivities(runtime.deps) });
  const stop = () => {
    for (const w of [shared.worker, own.worker]) if (w.getState() === 'RUNNING') w.shutdown();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  logger.info({ shard: config.shard, taskQueue: ownQueue, sharedTaskQueue: config.temporal.taskQueue, address: config.temporalAddress }, 'shard worker running');
  try {
    // If either stops (shutdown or a fatal error), stop the other one too.
    await Promise.all([shared.worker.run().finally(stop), own.worker.run().finally(stop)]);
  } finally {
    stopHeapBudget();
    await shared.connection.close();
    await own.connection.close();
    await runtime.close();
  }
}
