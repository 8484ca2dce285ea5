import { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.ts';
import { createWorker } from '../worker/createWorker.ts';
import { DevServer } from '../worker/devServer.ts';
import { temporalStateDir } from '../worker/paths.ts';
import { createLogger, type Logger } from '../worker/logger.ts';
import { buildRuntime, type Runtime } from '../worker/runtime.ts';
import type { ResolvedConfig } from '../worker/config.ts';
import { startHeapBudget } from '../worker/heapBudget.ts';
import { UserError } from './userError.ts';

/** A Temporal client, plus (embedded mode) the dev server and worker this process started. */
export interface Session {
  client: Client;
  taskQueue: string;
  address: string;
  uiUrl?: string;
  embedded: boolean;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * With TEMPORAL_ADDRESS the CLI is only a client of that cluster (workers run with
 * `glacier-etl worker`). Without it, the CLI starts the pinned dev server (state in the data
 * directory, so a crashed run resumes) and a worker in this process.
 */
export async function openSession(config: ResolvedConfig, options: { logger?: Logger; workflowBundlePath?: string; launched?: Promise<DevServer> } = {}): Promise<Session> {
  const logger = options.logger ?? createLogger({ base: { component: 'cli' } });
  // Shards are separate worker processes: the CLI can only be a client of their shared cluster.
  if (config.shards.length > 0 && !config.temporalAddress) throw new UserError(`the config names shards (${config.shards.join(', ')}): set TEMPORAL_ADDRESS to the cluster their workers use (glacier-etl worker --shard <name>)`);
  const taskQueue = config.temporal.taskQueue;
  let server: DevServer | undefined;
  let worker: Worker | undefined;
  let workerRun: Promise<void> | undefined;
  let runtime: Runtime | undefined;
  let closeWorkerConnection: (() => Promise<void>) | undefined;
  let stopHeapBudget: (() => void) | undefined;
  let address = config.temporalAddress;
  if (!address) {
    // The dev server's start-up (0.1-0.5 s, its own process) overlaps opening the warehouse,
    // and loading this module when the caller launched it first (sessionLauncher.ts).
    const starting = options.launched ? options.launched.then((launched) => launched.ready()) : new DevServer({ dataDir: temporalStateDir(config.dataDir) }).start();
    const opening = buildRuntime(config, logger);
    const [started, opened] = await Promise.allSettled([starting, opening]);
    if (started.status === 'rejected' || opened.status === 'rejected') {
      if (started.status === 'fulfilled') await started.value.stop();
      if (opened.status === 'fulfilled') await opened.value.close();
      throw started.status === 'rejected' ? started.reason : (opened as PromiseRejectedResult).reason;
    }
    server = started.value;
    runtime = opened.value;
    address = server.address;
    stopHeapBudget = startHeapBudget(config.worker.heapBudgetMb, logger);
    const created = await createWorker({
      address,
      namespace: config.temporal.namespace,
      taskQueue,
      logger,
      activities: createActivities(runtime.deps),
      workflowBundlePath: options.workflowBundlePath,
      temporalMetricsBindAddress: runtime.metrics?.temporalBindAddress,
    });
    worker = created.worker;
    closeWorkerConnection = () => created.connection.close();
    workerRun = worker.run();
  }
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  return {
    client,
    taskQueue,
    address,
    uiUrl: server?.uiUrl,
    embedded: Boolean(server),
    logger,
    async close() {
      await connection.close();
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await workerRun?.catch((error: unknown) => logger.error({ err: error }, 'worker stopped with an error'));
      await closeWorkerConnection?.();
      stopHeapBudget?.();
      // Independent once the worker is down: the warehouse's last checkpoint and the dev server's end
      // overlap. The server is killed, not stopped: its clients are gone, everything it acknowledged is
      // in its SQLite file (WAL mode: a killed process loses no committed transaction, and the next
      // start recovers the log, as after any crash, which the restart tests exercise), and a SIGTERM
      // costs a fixed 1.1 s of graceful drain on every command (measured: 1.08-1.11 s against 0.01 s).
      await Promise.all([runtime?.close(), server?.kill()]);
    },
  };
}

/** Runs fn with a session and always closes it, also on Ctrl-C. */
export async function withSession<T>(config: ResolvedConfig, fn: (session: Session) => Promise<T>, options: { launched?: Promise<DevServer> } = {}): Promise<T> {
  const session = await openSession(config, options);
  const onSignal = () => {
    session.logger.warn('interrupted: stopping (completed batches are committed; the next run resumes)');
    void session.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  try {
    return await fn(session);
  } finally {
    process.off('SIGINT', onSignal);
    await session.close();
  }
}
