import type { SyncPort } from '../ports.ts';
import type { StreamClient } from '../streams/streamDef.ts';
import type { BatchResult, PartitionSpec } from '../../common/activityTypes.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import type { StreamName } from '../../common/streamNames.ts';

/**
 * What the sync path reports as it works, for whoever watches it (the worker's Prometheus metrics).
 * The activity layer only knows this interface; the worker injects an implementation, and the sync
 * core, the warehouse and the client stay unaware of it: the decorators below wrap them.
 */
export interface SyncObserver {
  /** A batch of this partition started (partitions run one batch at a time). */
  batchStarted(partition: PartitionSpec): void;
  /** The batch ended: its result, or the error it failed with. */
  batchFinished(partition: PartitionSpec, outcome: { result?: BatchResult; failed?: boolean }): void;
  /** One transaction committed rows and pages of a stream; seconds from call to COMMIT. */
  committed(stream: StreamName, commit: { rows: number; pages: number; seconds: number }): void;
  /** One API call of a stream's partition succeeded, costing `cu` compute units (retries not included). */
  apiCall(stream: StreamName, cu: number): void;
}

/** The stream a partition id belongs to: ids start with the stream name ("evm.blocks/43114"). */
export function streamOfPartitionId(partitionId: string): StreamName | undefined {
  const stream = partitionId.split('/')[0];
  return /^[a-z]+\.[a-z_0-9]+$/.test(stream) ? (stream as StreamName) : undefined;
}

/** The sync port, reporting batch start and end. */
export function observeSync(sync: SyncPort, observer: SyncObserver): SyncPort {
  return {
    planPartitions: (input) => sync.planPartitions(input),
    readCheckpoint: (id) => sync.readCheckpoint(id),
    async syncBatch(input) {
      observer.batchStarted(input.partition);
      try {
        const result = await sync.syncBatch(input);
        observer.batchFinished(input.partition, { result });
        return result;
      } catch (error) {
        observer.batchFinished(input.partition, { failed: true });
        throw error;
      }
    },
  };
}

/**
 * The warehouse, timing each commitBatch and reporting the rows and pages it committed. Every other
 * member is the warehouse's own (a Proxy, so the class's private state stays where it is).
 */
export function observeCommits(warehouse: Warehouse, observer: SyncObserver): Warehouse {
  const commitBatch: Warehouse['commitBatch'] = async (...args) => {
    const started = performance.now();
    await warehouse.commitBatch(...args);
    const [, checkpoint, run] = args;
    observer.committed(checkpoint.stream, { rows: run?.rows ?? 0, pages: run?.pages ?? 0, seconds: (performance.now() - started) / 1000 });
  };
  return new Proxy(warehouse, {
    get(target, property) {
      if (property === 'commitBatch') return commitBatch;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The stream client, reporting each successful call with its stream and weight. */
export function observeCalls(client: StreamClient, observer: SyncObserver): StreamClient {
  return {
    async call(endpoint, params, options) {
      const response = await client.call(endpoint, params, options);
      const stream = options?.partition ? streamOfPartitionId(options.partition) : undefined;
      if (stream) observer.apiCall(stream, endpoint.weight);
      return response;
    },
  };
}
