/**
 * Shards: several worker processes, each owning its own DuckDB file and its own activity task
 * queue, fill one warehouse lake. Shared kernel (pure, no I/O): workflows, the worker and the CLI
 * agree here on shard names, queue names and which partitions must live together.
 */

/** A shard name: short, and safe in a task queue name, a file name and a Parquet file name. */
export const SHARD_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The activity task queue of one shard (its worker polls it; the pipeline routes that shard's work to it). */
export function shardTaskQueue(taskQueue: string, shard: string): string {
  return `${taskQueue}.shard.${shard}`;
}

/**
 * The placement group of a partition: partitions of one group always live on the same shard.
 * Within one warehouse some partitions write the same table keys or update each other's rows: a
 * chain's address transactions are also its chain-wide transactions, balance walks of an owner also
 * write its native balance, a primary-network spend marks the UTXO its export emitted on another
 * chain, a reward marks its staking transaction, and verify compares blocks with their transactions
 * and balances with UTXOs. Keeping each EVM chain (with its holder metrics) and each primary network
 * on one shard keeps every such pair in one DuckDB file, so the union of the shards holds each key
 * once and each shard's own checks hold.
 */
export function placementGroup(partitionId: string, stream: string): string {
  const [, scope = partitionId] = partitionId.split('/');
  if (stream.startsWith('pn.')) return `pn/${scope}`;
  if (stream.startsWith('evm.') || stream.startsWith('metrics.')) return `evm/${scope}`;
  return partitionId;
}
