import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createWorker } from '../../worker/createWorker.ts';

export interface TestWorker {
  taskQueue: string;
  client: Client;
  worker: Worker;
  /** Runs fn while the worker polls; fails fast if the worker dies. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A real worker on a unique task queue of the run's shared dev server, plus a client for it. */
export async function startTestWorker(options: { activities: object; address?: string; prefix?: string; taskQueue?: string }): Promise<TestWorker> {
  const address = options.address ?? inject('temporalAddress');
  const taskQueue = options.taskQueue ?? `${options.prefix ?? 'test'}-${randomUUID()}`;
  const { worker, connection: nativeConnection } = await createWorker({
    address,
    taskQueue,
    activities: options.activities,
    workflowBundlePath: inject('workflowBundlePath'),
  });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  // One long-lived run per worker (a Worker can only run once); tests call run() many times.
  const running = worker.run();
  const died = running.then(() => {
    throw new Error('worker stopped');
  });
  died.catch(() => undefined);
  return {
    taskQueue,
    client,
    worker,
    run: (fn) => Promise.race([fn(), died]),
    async close() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await nativeConnection.close();
    },
  };
}
