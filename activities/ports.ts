import type { StreamName } from '../common/streamNames.ts';
import type { BatchInput, BatchResult, CheckpointView, PartitionSpec, PlanInput } from './sync/types.ts';
import type { ReportData } from './report/reportData.ts';
import type { StreamCost } from './sync/streamCosts.ts';
import type { DriftRow } from './warehouse/warehouse.ts';

/**
 * What the Temporal activities need from the rest of the worker, as narrow interfaces, so the
 * activity layer is built from injected dependencies and stays readable on its own.
 */
export interface SyncPort {
  planPartitions(input: PlanInput): Promise<PartitionSpec[]>;
  syncBatch(input: BatchInput): Promise<BatchResult>;
  readCheckpoint(partitionId: string): Promise<CheckpointView | undefined>;
}

/** Files (re)written, tables exported, partitions left unchanged and partition files removed. */
export interface ExportSummary {
  files: number;
  tables: number;
  unchanged: number;
  deleted: number;
}

export interface ExportPort {
  exportParquet(input: { tables?: string[] }): Promise<ExportSummary>;
}

export interface StatusPort {
  listCheckpoints(): Promise<CheckpointView[]>;
  /** Per stream: CU spent against the optimum, over all runs and in the last one. */
  streamCosts(): Promise<StreamCost[]>;
  /** Schema drift seen (_glacier_drift). */
  listDrift(): Promise<DriftRow[]>;
}

export interface VerifyFinding {
  check: string;
  ok: boolean;
  detail: string;
  /** A warning (schema drift): shown, never a failure (ok stays true). */
  warning?: boolean;
}

export interface VerifyInput {
  streams?: StreamName[];
  /**
   * 'shard': this warehouse is one shard of several. Its checks cover what it holds; whether every
   * configured partition was synced somewhere is checked across all shards (workflows/shards.ts).
   */
  scope?: 'shard';
}

export interface VerifyPort {
  verify(input: VerifyInput): Promise<VerifyFinding[]>;
}

/** The analyst report's data, read by the worker that owns the warehouse (the CLI renders the page). */
export interface ReportPort {
  reportData(): Promise<ReportData>;
}
