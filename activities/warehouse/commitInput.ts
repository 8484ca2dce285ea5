import type { CheckpointView } from '../../common/activityTypes.ts';
import type { DriftSeen, FieldPresence } from './driftRecord.ts';

/*
 * What a commit is given besides its rows (Warehouse.commitBatch): the partition's checkpoint, the
 * run's record, a finished snapshot walk. Its own module so the commit's record statements
 * (commitRecords.ts) and the warehouse read it without importing each other.
 */

/** The checkpoint to store with a batch: totals, not deltas (the caller read the previous one); the commit stamps its time. */
export type CheckpointWrite = Omit<CheckpointView, 'updatedAt'>;

/** Per-run bookkeeping written in the same transaction (deltas for this commit). */
export interface RunRecord {
  runId: string;
  mode: string;
  snapshotAt: number;
  pages: number;
  rows: number;
  done: boolean;
  /** What these pages cost (absent: nothing counted). */
  cost?: RunCost;
  /** Schema drift the pages showed (_glacier_drift), recorded with them. */
  drift?: DriftSeen[];
  /** Top-level fields whose record changed (_glacier_stream_fields, the missing_field baseline). */
  fields?: Map<string, FieldPresence>;
}

/** Compute units behind a run record: see _glacier_sync_runs in sql/schema/000_glacier.sql. */
export interface RunCost {
  requests: number;
  cu: number;
  rejected429: number;
  /** API list items (or get responses) the pages held. */
  items: number;
  weight: number;
  /** The endpoint's largest page; null for a get endpoint. */
  pageLimit: number | null;
  /**
   * Pages the server ended before the requested size while more remained (primary-network
   * transaction pages are cut by the UTXOs they carry), and the items they held: no request could
   * have bought more items at those positions, so the optimum counts each as one request.
   */
  cutPages?: number;
  cutItems?: number;
}

/**
 * A snapshot-replace walk that this commit finishes: recorded with its last page and its checkpoint,
 * so "latest" means the last finished walk, an empty one included, and never a half-written walk.
 */
export interface SnapshotWalkRecord {
  snapshotAt: number;
  runId: string;
  /** The partition's endpoint parameters: what the walk covers (the views read them). */
  params: Record<string, unknown>;
  /** Rows and pages of the whole walk (across its batches), all tables. */
  rows: number;
  pages: number;
}
