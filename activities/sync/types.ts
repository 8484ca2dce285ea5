import type { StreamName } from '../../common/streamNames.ts';

/**
 * The contract between orchestration (workflows/, activities/index.ts) and the sync core
 * (activities/sync/, activities/streams/, activities/warehouse/). Everything here is plain JSON:
 * it travels in workflow arguments and results, so it never holds secrets.
 */

export type SyncMode = 'descending-until-known' | 'range' | 'snapshot-merge' | 'snapshot-replace';

/** One independent walk of one stream. `id` is deterministic and unique: it names the workflow. */
export interface PartitionSpec {
  stream: StreamName;
  /** e.g. "evm.blocks/43114" or "pn.utxos/mainnet/p-chain/avax1…"; safe in a workflow id. */
  id: string;
  network?: 'mainnet' | 'fuji' | 'testnet';
  /** EVM chain id, or primary-network alias (p-chain/x-chain/c-chain). */
  chain?: string;
  /** Endpoint parameters that define the partition (addresses, nodeIds, contract, block range…). */
  params: Record<string, string | number | boolean | string[]>;
}

export interface BatchInput {
  partition: PartitionSpec;
  /** Pages to fetch before committing and returning (a commit per page is also fine). */
  maxPages: number;
  /** 'backfill' ignores stored high-water marks where the stream allows; 'sync' is incremental. */
  mode: 'backfill' | 'sync';
  /** Identifies one pipeline run (snapshot streams stamp their rows with its time). */
  runId: string;
  /** Snapshot time in epoch seconds, fixed per run so retries write the same snapshot. */
  snapshotAt: number;
}

/** What to plan; with `runId`, what planning spends (head probes) is recorded against that run. */
export interface PlanInput {
  streams?: StreamName[];
  /** Second wave: partitions derived from what the first wave stored. */
  discovered?: boolean;
  /** With `discovered`: the validators' node ids per network, as merged from every shard (default: this warehouse's). */
  validatorNodeIds?: Record<string, string[]>;
  runId?: string;
  mode?: 'backfill' | 'sync';
  snapshotAt?: number;
}

/**
 * The durable checkpoint as stored in the warehouse (authoritative copy): the totals a commit wrote
 * and when it wrote them. The warehouse writes the same fields without updatedAt (CheckpointWrite).
 */
export interface CheckpointView {
  partitionId: string;
  stream: StreamName;
  pageToken: string | null;
  /** Stream-specific cursor state (high-water marks, walk top, range end…). */
  cursor: Record<string, unknown>;
  rows: number;
  pages: number;
  /** True when the current walk is complete (nothing left to fetch until new data appears). */
  complete: boolean;
  updatedAt: string;
}

export interface BatchResult {
  done: boolean;
  pages: number;
  rows: number;
  checkpoint: CheckpointView;
}

export interface PartitionProgress {
  partitionId: string;
  stream: StreamName;
  rows: number;
  pages: number;
  done: boolean;
  error?: string;
  pausedUntil?: string;
}
