import { sqlFile } from '../warehouse/sqlFile.ts';
import type { VerifyFinding } from '../../common/activityTypes.ts';

/** Reads committed rows from the warehouse (a read-only connection, or the worker's own reader). */
export type QueryFn = (sql: string) => Promise<Record<string, unknown>[]>;

/** A cell as JSON can carry it: 64-bit integers become numbers when exact, text otherwise. */
export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export interface CuFigure {
  run_id: string;
  stream: string;
  pages: number;
  cu: number;
}

/** One pipeline run's size record (_glacier_run_sizes): what it cost and what the warehouse held when it ended. */
export interface NightFigure {
  run_id: string;
  /** 'sync' (CLI sync and the Schedule's runs) or 'backfill'; null for a run that synced no partition. */
  mode: string | null;
  /** When its first partition started (UTC, ISO seconds). */
  started: string;
  cu: number;
  requests: number;
  pages: number;
  rows_written: number;
  /** Rows stored in the stream tables when the run ended. */
  rows_stored: number;
  /** The DuckDB file and its WAL. */
  warehouse_bytes: number;
  /** The lake's Parquet files (every shard's) when the run exported; null when it did not. */
  lake_files: number | null;
  lake_bytes: number | null;
  /** Wall time from the first partition's start to the last commit. */
  sync_seconds: number | null;
  /** Wall time from the last commit to the record (the export); null when the run did not export. */
  export_seconds: number | null;
  /** sync + export (the nightly verify runs after the record and is not in it). */
  wall_seconds: number | null;
  /** Rows stored per stream table. */
  table_rows: Record<string, number>;
}

/** Everything the report shows, as plain JSON (it is embedded into the page as is). */
export interface ReportData {
  generatedAt: string;
  source: string;
  partitions: Row[];
  loadedRanges: Row[];
  /** Warehouse checks (sql/verify/): each with the rows that break it. */
  checks: { check: string; ok: boolean; detail: string }[];
  /** Findings of a full verify run (the demo passes its own; the command runs the local checks only). */
  verifyFindings?: VerifyFinding[];
  syncRuns: Row[];
  /** CU per run and stream, as recorded by the runs. */
  cu: CuFigure[];
  dailyTransactions: Row[];
  dailyTokenTransfers: Row[];
  validatorStake: Row[];
  validatorStatus: Row[];
  rewardsPerAddress: Row[];
  /** Schema drift seen (_glacier_drift); empty on a warehouse from before it existed. */
  drift?: Row[];
  /** Every pipeline run's size record, oldest first (the page plots the sync runs). */
  nights: NightFigure[];
}

export function plainCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

async function rows(query: QueryFn, file: string): Promise<Row[]> {
  const result = await query(sqlFile(file));
  return result.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plainCell(v)])));
}

const list = (found: Row[], fmt: (r: Row) => string) => found.map(fmt).join(', ');

/** The warehouse-only checks of verify (sql/verify/): gaps, parent links, tx counts, unfinished walks. */
async function localChecks(query: QueryFn): Promise<ReportData['checks']> {
  const gaps = await rows(query, 'verify/blockGaps.sql');
  const links = await rows(query, 'verify/blockParentLinks.sql');
  const counts = await rows(query, 'verify/blockTxCounts.sql');
  const incomplete = await rows(query, 'verify/incompletePartitions.sql');
  return [
    { check: 'evm_blocks: no gaps', ok: gaps.length === 0, detail: gaps.length ? `missing ${list(gaps, (g) => `${g.chain_id}:${g.gap_from}-${g.gap_to}`)}` : 'no missing block numbers between stored blocks' },
    { check: 'evm_blocks: parent hashes link up', ok: links.length === 0, detail: links.length ? `broken at ${list(links, (l) => `${l.chain_id}:${l.block_number}`)}` : 'every adjacent pair links' },
    { check: 'evm_blocks.tx_count matches stored transactions', ok: counts.length === 0, detail: counts.length ? `differs at ${list(counts, (m) => `${m.chain_id}:${m.block_number}`)}` : 'every covered block matches' },
    { check: 'partitions: every walk finished', ok: incomplete.length === 0, detail: incomplete.length ? `unfinished: ${list(incomplete, (p) => String(p.partition_id))}` : 'no partition left mid-walk' },
  ];
}

/** CU per run and stream, as the runs recorded them (retries and 429s included; see _glacier_sync_runs). */
async function cuPerRunAndStream(query: QueryFn): Promise<CuFigure[]> {
  const found = await rows(query, 'report/runStreamCu.sql');
  return found.map((r) => ({ run_id: String(r.run_id), stream: String(r.stream), pages: Number(r.pages), cu: Number(r.cu) }));
}

const numberOrNull = (value: Cell | undefined) => (value === null || value === undefined ? null : Number(value));

/** The size records of the runs, oldest first (sql/report/nights.sql). */
async function nights(query: QueryFn): Promise<NightFigure[]> {
  const found = await rows(query, 'report/nights.sql');
  return found.map((r) => ({
    run_id: String(r.run_id),
    mode: r.mode === null ? null : String(r.mode),
    started: String(r.started),
    cu: Number(r.cu),
    requests: Number(r.requests),
    pages: Number(r.pages),
    rows_written: Number(r.rows_written),
    rows_stored: Number(r.rows_stored),
    warehouse_bytes: Number(r.warehouse_bytes),
    lake_files: numberOrNull(r.lake_files),
    lake_bytes: numberOrNull(r.lake_bytes),
    sync_seconds: numberOrNull(r.sync_seconds),
    export_seconds: numberOrNull(r.export_seconds),
    wall_seconds: numberOrNull(r.wall_seconds),
    table_rows: JSON.parse(String(r.table_rows)) as Record<string, number>,
  }));
}

/** What the report shows, read from the warehouse (the worker that owns the file runs this as an activity). */
export async function loadReportData(query: QueryFn, options: { source: string; verifyFindings?: VerifyFinding[]; now?: Date }): Promise<ReportData> {
  return {
    generatedAt: (options.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'),
    source: options.source,
    partitions: await rows(query, 'report/partitions.sql'),
    loadedRanges: await rows(query, 'report/loadedRanges.sql'),
    checks: await localChecks(query),
    verifyFindings: options.verifyFindings,
    syncRuns: await rows(query, 'report/syncRuns.sql'),
    cu: await cuPerRunAndStream(query),
    dailyTransactions: await rows(query, 'report/dailyTransactions.sql'),
    dailyTokenTransfers: await rows(query, 'report/dailyTokenTransfers.sql'),
    validatorStake: await rows(query, 'report/validatorStake.sql'),
    validatorStatus: await rows(query, 'report/validatorStatusOverTime.sql'),
    rewardsPerAddress: await rows(query, 'report/rewardsPerAddress.sql'),
    // A warehouse last opened by 0.1.0 (read-only here) has no drift table yet.
    drift: await rows(query, 'report/drift.sql').catch(() => []),
    nights: await nights(query),
  };
}
