import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { LakeError } from './lake/settings.ts';
import type { Logger } from '../common/logger.ts';
import { toTemporalFailure } from './temporalFailure.ts';
import type { ExportInput, ExportPort, ExportSummary, MaintenancePort, ReportPort, StatusPort, StorageVersions, SyncPort, VerifyInput, VerifyPort } from './ports.ts';
import type { ReportData } from './report/reportData.ts';
import type { BatchResult, CheckpointView, PartitionSpec, PlanInput } from '../common/activityTypes.ts';
import type { StreamCost } from './sync/streamCosts.ts';
import type { DriftRow } from './warehouse/warehouse.ts';
import type { ShardHoldings, ShardPort } from './shards/shardLedger.ts';
import { PartitionTurns, runBatches, type BatchRunInput } from './batchRun.ts';
import { runSweep, type SweepInput, type SweepOutcome } from './sweep.ts';


/** Attempts of an export that finds its lake unreachable before it fails for good (the night waits for the next run). */
const LAKE_ATTEMPTS = 5;
/** What activities are built from; the worker injects real ones (see worker/runtime.ts). */
export interface ActivityDeps {
  logger: Logger;
  sync?: SyncPort;
  exporter?: ExportPort;
  status?: StatusPort;
  verifier?: VerifyPort;
  report?: ReportPort;
  maintenance?: MaintenancePort;
  /** Only a shard worker has one (sharded layout): what it holds, claims, discovered validators. */
  shard?: ShardPort;
  /** Batches a sweep runs at once (config sweepConcurrency); absent: the workflow's partitionConcurrency. */
  sweepConcurrency?: number;
}

/** How often keepAlive heartbeats unless told otherwise. */
const KEEPALIVE_MS = 5_000;

/**
 * Runs `work` inside an activity, heartbeating every `everyMs` (with `details()` when given), so a
 * worker that dies while it runs is noticed within the activity's heartbeat timeout, not its
 * start-to-close timeout (a SIGKILLed worker in the crash campaign left the pipeline's
 * applyRetention to wait 30 minutes).
 */
async function keepAlive<T>(work: () => Promise<T>, options: { everyMs?: number; details?: () => unknown } = {}): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(options.details?.()), options.everyMs ?? KEEPALIVE_MS);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

function need<T>(port: T | undefined, name: string): T {
  if (!port) throw new Error(`worker was started without ${name}`);
  return port;
}

/** Builds the activity functions from their dependencies (no module-level state). */
export function createActivities(deps: ActivityDeps) {
  const turns = new PartitionTurns();
  return {
    async ping(name: string): Promise<string> {
      deps.logger.debug({ name }, 'ping');
      return `pong ${name}`;
    },

    async planPartitions(input: PlanInput): Promise<PartitionSpec[]> {
      const sync = need(deps.sync, 'the sync core');
      return keepAlive(() => sync.planPartitions(input));
    },

    /**
     * One batch (pages -> normalize -> one DuckDB transaction with the rows and the checkpoint), or
     * with `continueForMs` batch after batch (activities/batchRun.ts), heartbeating after each commit.
     */
    async syncBatch(input: BatchRunInput): Promise<BatchResult> {
      const sync = need(deps.sync, 'the sync core');
      const ctx = Context.current();
      const log = deps.logger.child({ partition: input.partition.id, stream: input.partition.stream, workflowId: ctx.info.workflowExecution?.workflowId });
      const beatWith = (checkpoint: CheckpointView | undefined) => ctx.heartbeat(checkpoint && { pageToken: checkpoint.pageToken !== null, rows: checkpoint.rows, pages: checkpoint.pages });
      // Heartbeat with the durable checkpoint so the server can tell a stuck attempt from a slow one.
      const beat = setInterval(() => {
        sync.readCheckpoint(input.partition.id).then(beatWith, () => ctx.heartbeat());
      }, 3_000);
      const turn = await turns.take(input.partition.id);
      if (turn.superseded) log.warn({ attempt: ctx.info.attempt }, 'an earlier attempt of this partition was still running; it stopped at its batch boundary');
      const stop = AbortSignal.any([turn.signal, ctx.cancellationSignal]);
      try {
        const result = await runBatches(sync, input, { logger: log, signal: stop, committed: beatWith });
        log.debug({ rows: result.rows, pages: result.pages, done: result.done }, 'batches committed');
        return result;
      } catch (error) {
        const failure = toTemporalFailure(error);
        log.warn({ err: { name: failure.name, message: failure.message } }, 'batch failed');
        throw failure;
      } finally {
        turn.release();
        clearInterval(beat);
      }
    },

    /**
     * One batch of each partition, `concurrency` at once, in this process (activities/sweep.ts).
     * Heartbeats the outcomes settled so far; a retried call returns those without running them again.
     */
    async syncSweep(input: SweepInput): Promise<SweepOutcome[]> {
      const sync = need(deps.sync, 'the sync core');
      const ctx = Context.current();
      const log = deps.logger.child({ workflowId: ctx.info.workflowExecution?.workflowId, partitions: input.partitions.length });
      const settled = ((ctx.info.heartbeatDetails as { settled?: SweepOutcome[] } | undefined)?.settled ?? []).filter((o) => o && typeof o.partitionId === 'string');
      if (settled.length > 0) log.info({ attempt: ctx.info.attempt, settled: settled.length }, 'sweep retried: skipping the partitions an earlier attempt settled');
      let last: readonly SweepOutcome[] = settled;
      // A batch can take a while (20 pages): the interval keeps the call alive between settlements.
      const outcomes = await keepAlive(
        () =>
          runSweep(sync, { ...input, concurrency: deps.sweepConcurrency ?? input.concurrency }, {
            logger: log,
            signal: ctx.cancellationSignal,
            turns,
            settled,
            progress: (o) => {
              last = o;
              ctx.heartbeat({ settled: o });
            },
          }),
        { everyMs: 3_000, details: () => ({ settled: last }) },
      );
      const handedOff = outcomes.filter((o) => 'handOff' in o).length;
      log.debug({ done: outcomes.filter((o) => 'done' in o && o.done).length, handedOff }, 'sweep finished');
      return outcomes;
    },

    /**
     * The lake export. An unreachable or bad lake (a LakeError: one line naming the catalog or the
     * bucket) is retried a few times, then fails the activity for good: the night's changes stay
     * marked in the warehouse and the next run's export applies them.
     */
    async exportParquet(input: ExportInput): Promise<ExportSummary> {
      try {
        const exporter = need(deps.exporter, 'the lake exporter');
        const result = await keepAlive(() => exporter.exportParquet(input));
        if (result.upkeepError) deps.logger.warn({ error: result.upkeepError }, 'lake upkeep failed: the night was exported, the next export runs the upkeep again');
        return result;
      } catch (error) {
        if (error instanceof LakeError && Context.current().info.attempt >= LAKE_ATTEMPTS) throw ApplicationFailure.create({ type: 'LakeUnavailable', message: error.message, nonRetryable: true });
        throw error;
      }
    },

    async listCheckpoints(): Promise<CheckpointView[]> {
      return need(deps.status, 'the warehouse').listCheckpoints();
    },

    async streamCosts(): Promise<StreamCost[]> {
      return need(deps.status, 'the warehouse').streamCosts();
    },

    async storageVersions(): Promise<StorageVersions> {
      const status = need(deps.status, 'the warehouse');
      if (!status.storageVersions) throw new Error('worker was started without storage versions');
      return status.storageVersions();
    },

    /**
     * The pipeline's last housekeeping step (after its sync and export): records the warehouse's size
     * for this run, then applies retention. The run is named as the pipeline names it in its run
     * records (`${workflowId}/${runId}`), from the activity's own info: the workflow passes nothing
     * new, so its commands did not change (no patch).
     */
    applyRetention: (): Promise<{ runRecords: number }> => keepAlive(async () => {
      const maintenance = need(deps.maintenance, 'the warehouse');
      const run = Context.current().info.workflowExecution;
      if (run) {
        const started = performance.now();
        const size = await maintenance.recordRunSize(`${run.workflowId}/${run.runId}`);
        const ms = Math.round(performance.now() - started);
        deps.logger.info({ workflowId: run.workflowId, rowsStored: size.warehouse.rows, warehouseBytes: size.warehouse.bytes, lakeFiles: size.lake?.files, lakeBytes: size.lake?.bytes, ms }, 'run size recorded');
      }
      return maintenance.applyRetention();
    }),

    async listDrift(): Promise<DriftRow[]> {
      return need(deps.status, 'the warehouse').listDrift();
    },

    async verify(input: VerifyInput) {
      const verifier = need(deps.verifier, 'the verifier');
      return keepAlive(() => verifier.verify(input));
    },

    async reportData(): Promise<ReportData> {
      const report = need(deps.report, 'the warehouse');
      return keepAlive(() => report.reportData());
    },

    /** Sharded layout: the placement groups and partitions this shard's warehouse holds. */
    async shardHoldings(): Promise<ShardHoldings> {
      return need(deps.shard, 'a shard name').holdings();
    },

    async claimPlacementGroups(input: { groups: string[]; runId: string }): Promise<void> {
      return need(deps.shard, 'a shard name').claim(input.groups, input.runId);
    },

    async storedValidatorNodeIds(): Promise<Record<string, string[]>> {
      return need(deps.shard, 'a shard name').validatorNodeIds();
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
