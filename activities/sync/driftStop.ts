import type { DriftSeen } from '../warehouse/driftRecord.ts';
import { sampleOf } from '../warehouse/driftRecord.ts';
import type { StreamDriver } from '../streams/streamDef.ts';
import type { PartitionSpec } from './types.ts';

/**
 * A partition stopped by schema drift: a mapped field of another type (never written wrong or
 * NULL), or a new field under a `freeze` contract. Non-retryable (kind response-validation: the same
 * page fails the same way); the partition keeps its checkpoint, so a run after an upgrade or a
 * config change resumes there, and the pipeline's other partitions go on.
 */
export class DriftStopError extends Error {
  override name = 'DriftStopError';
  readonly kind = 'response-validation';
  constructor(
    message: string,
    readonly drift: DriftSeen,
  ) {
    super(message);
  }
}

/** An item path from a validation path: `blocks[3].from.name` -> `from.name` (list key and index dropped, other indexes as []). */
export function itemPath(stream: StreamDriver, path: string): string {
  const listKey = (stream.walks as { listKey?: string }).listKey;
  const generic = path.replace(/\[\d+\]/g, '[]');
  return listKey !== undefined && generic.startsWith(`${listKey}[]`) ? generic.slice(listKey.length + 2).replace(/^\./, '') || '(item)' : generic;
}

export function typeChangeStop(stream: StreamDriver, partition: PartitionSpec, path: string, types: { expected: string; received: string; sample: string | null }): DriftStopError {
  const field = itemPath(stream, path);
  return new DriftStopError(
    `${partition.id}: stream ${stream.name} field ${field} changed type: expected ${types.expected}, received ${types.received}${types.sample ? ` ${types.sample}` : ''}; the partition stops at its checkpoint until an upgrade or config accepts it`,
    { kind: 'type_change', path: `${field}: ${types.expected} -> ${types.received}`, count: 1, sample: types.sample },
  );
}

export function frozenStop(stream: StreamDriver, partition: PartitionSpec, drift: DriftSeen): DriftStopError {
  return new DriftStopError(
    `${partition.id}: stream ${stream.name} has contract freeze and the API sent a new field ${drift.path} = ${drift.sample ?? 'null'}; the partition stops at its checkpoint (set schemaContracts.${stream.name} to evolve or discard to go on)`,
    drift,
  );
}

export { sampleOf };
