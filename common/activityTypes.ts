import type { StreamName } from './streamNames.ts';

/**
 * The plain-JSON types every layer shares: the contract between orchestration (workflows/,
 * activities/index.ts) and the sync core (activities/sync/, streams/, warehouse/), and the
 * checkpoint with its cursor as the warehouse stores it. They travel in workflow arguments, results
 * and heartbeat details, so they never hold secrets; release 0.1.0 persisted them, so a change of
 * shape reads the old one too. The lowest module of the activities: it imports none of them.
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

/** A finding of `verify`: one check, whether it passed, and what it saw. */
export interface VerifyFinding {
  check: string;
  ok: boolean;
  detail: string;
  /** A warning (schema drift): shown, never a failure (ok stays true). */
  warning?: boolean;
}

/**
 * The generic walk cursor of every sync mode (activities/sync/walk.ts explains each field's rules).
 * What only one stream needs lives in `stream`, owned by that stream's declaration (StreamDecl.cursor):
 * the generic walk carries it, never reads it.
 */
export interface WalkCursor<S = unknown> {
  runId?: string;
  /** descending-until-known */
  hwm?: number;
  walkTop?: number;
  /** descending-until-known: this walk ignores hwm (backfill) */
  full?: boolean;
  /** descending-until-known: identities of the items at walkTop this walk has read (streams with an identity; at most MARK_IDS) */
  topIds?: string[];
  /** descending-until-known: identities of items at hwm that are stored (absent in cursors written before 0.2: every item at the mark is written again) */
  markIds?: string[];
  /** range */
  from?: number;
  maxSeen?: number;
  next?: number;
  /** range: the walk covered a range with an end (endBlock/endTimestamp), so once complete it is final */
  closed?: boolean;
  /** snapshots */
  snapshotAt?: number;
  /** Pages this walk has read since it started (or restarted): the position of its next request. */
  page?: number;
  /**
   * The position at which this walk last restarted on a rejected page token. A second rejection at the
   * same position is not a stale token (the walk got there afresh): it fails instead of looping.
   */
  staleAt?: number;
  /** snapshot-replace: rows and pages this walk has committed so far (recorded when it finishes). */
  walkRows?: number;
  walkPages?: number;
  /**
   * snapshot-replace, streams with StreamDecl.sameWalks: a digest of the items this walk has read, page
   * by page (chained, so it spans batches); a complete walk keeps it. `lastDigest`: the one of the
   * partition's last complete walk, taken at this walk's start only when that walk is the last thing
   * committed for the partition (activities/sync/walk.ts).
   */
  digest?: string;
  lastDigest?: string;
  /** snapshot-merge until known: newest item of the last complete walk (`top`), carried by the next walk as `known` */
  top?: string;
  known?: string;
  /** snapshot-merge until known: the identity of this walk's newest item */
  newest?: string;
  /** The stream's own part of the cursor (see above). */
  stream?: S;
}
