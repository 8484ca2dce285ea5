import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createWorker } from '../../worker/createWorker.ts';

export interface TestWorker {
  taskQueue: string;
  client: Client;
  worker: Worker;
  /** Runs the worker until fn settles, then shuts it down. */
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
  return {
    taskQueue,
    client,
    worker,
    run: (fn) => worker.runUntil(fn),
    async close() {
      await connection.close();
      await nativeConnection.close();
    },
  };
}
