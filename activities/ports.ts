import type { StreamName } from '../common/streamNames.ts';
import type { BatchInput, BatchResult, CheckpointView, PartitionSpec, PlanInput, VerifyFinding } from '../common/activityTypes.ts';
import type { ReportData } from './report/reportData.ts';
import type { StreamCost } from './sync/streamCosts.ts';
import type { DriftRow } from './warehouse/warehouse.ts';
import type { RunSize } from './warehouse/runSizes.ts';

/**
 * What the Temporal activities need from the rest of the worker, as narrow interfaces, so the
 * activity layer is built from injected dependencies and stays readable on its own.
 */
export interface SyncPort {
  planPartitions(input: PlanInput): Promise<PartitionSpec[]>;
  syncBatch(input: BatchInput): Promise<BatchResult>;
  readCheckpoint(partitionId: string): Promise<CheckpointView | undefined>;
}

/** What an export did (activities/lake/export.ts ExportResult; before 0.3 the Parquet files and partitions it wrote). */
export interface ExportSummary {
  files: number;
  tables: number;
  unchanged: number;
  deleted: number;
  /** Tables compared whole rather than by the commits' marks (absent before 0.2). */
  fullTables?: number;
  /** Rows inserted, and the lake snapshot of the night (absent before 0.3, and when nothing changed). */
  inserted?: number;
  snapshot?: number;
  /** The lake's upkeep before the night failed (logged; the next export runs it again). */
  upkeepError?: string;
}

/** `full`: compare every table whole instead of reading the marks (export --full). */
export interface ExportInput {
  tables?: string[];
  full?: boolean;
}

export interface ExportPort {
  exportParquet(input: ExportInput): Promise<ExportSummary>;
}

export interface StatusPort {
  listCheckpoints(): Promise<CheckpointView[]>;
  /** Per stream: CU spent against the optimum, over all runs and in the last one. */
  streamCosts(): Promise<StreamCost[]>;
  /** The warehouse schema and lake layout versions, with the ones this build writes. */
  storageVersions?(): Promise<StorageVersions>;
  /** Schema drift seen (_glacier_drift). */
  listDrift(): Promise<DriftRow[]>;
}

/** What `status` shows of the stored data's versions (docs/upgrading.md). */
export interface StorageVersions {
  warehouse: { version: number | null; current: number };
  /** The lake: its format and catalog (a worker before 0.3 answered its Parquet layout version). */
  lake: { format: string; catalog: string } | { version: number; current: number };
}

export type { VerifyFinding } from '../common/activityTypes.ts';

export interface VerifyInput {
  streams?: StreamName[];
  /**
   * 'shard': this warehouse is one shard of several. Its checks cover what it holds; whether every
   * configured partition was synced somewhere is checked across all shards (workflows/shards.ts).
   */
  scope?: 'shard';
  /**
   * 'changed' (nightly): the consistency checks cover what commits changed since the last verify
   * without problems (block windows with their stored neighbours, tx counts of those blocks, balances
   * of the address sets walked since, keys of the changed partitions); the first one runs in full.
   * 'full' (default): every row.
   */
  mode?: 'full' | 'changed';
}

/** Housekeeping after a run: the run's size record, and retention of the tables that grow per run. */
export interface MaintenancePort {
  applyRetention(): Promise<{ runRecords: number }>;
  /** What the warehouse (and the lake, if the run exported) holds at the end of pipeline run `runId` (_glacier_run_sizes). */
  recordRunSize(runId: string): Promise<RunSize>;
}

export interface VerifyPort {
  verify(input: VerifyInput): Promise<VerifyFinding[]>;
}

/** The analyst report's data, read by the worker that owns the warehouse (the CLI renders the page). */
export interface ReportPort {
  reportData(): Promise<ReportData>;
}
