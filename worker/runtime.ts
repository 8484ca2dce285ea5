import { existsSync, mkdirSync } from 'node:fs';
import type { ActivityDeps } from '../activities/index.ts';
import { createDataApiClient } from '../activities/api/index.ts';
import { keyBudgets } from '../activities/api/quotaBudget.ts';
import { openWarehouse, type Warehouse } from '../activities/warehouse/warehouse.ts';
import { exportLake } from '../activities/lake/export.ts';
import { allTables } from '../activities/streams/catalog.ts';
import { WAREHOUSE_SCHEMA_VERSION } from '../activities/warehouse/schemaVersion.ts';
import { applyRetention } from '../activities/warehouse/retention.ts';
import { recordRunSize } from '../activities/warehouse/runSizes.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import { streamCosts } from '../activities/sync/streamCosts.ts';
import { createVerifier } from '../activities/verify/verifier.ts';
import { apiKeysFromEnv, type ResolvedConfig } from './config.ts';
import { SWEEP_CONCURRENCY } from '../common/config.ts';
import type { Logger } from './logger.ts';
import { lakeWhere } from '../activities/lake/settings.ts';
import { lakeOf, ownWarehousePath, parquetDir } from './paths.ts';
import { createShardLedger } from '../activities/shards/shardLedger.ts';
import { startWorkerMetrics, type WorkerMetrics } from './metrics.ts';
import { observeCalls, observeCommits, observeSync } from '../activities/observe/syncObserver.ts';
import { TIER_BUDGETS } from '../activities/api/quotaBudget.ts';
import { loadReportData } from '../activities/report/reportData.ts';

export interface Runtime {
  deps: ActivityDeps;
  /** The DuckDB warehouse this process owns (tests and benchmarks read it directly). */
  warehouse: Warehouse;
  /** The Prometheus endpoint, when config.worker.metricsPort is set; pass temporalBindAddress to createWorker. */
  metrics?: WorkerMetrics;
  close(): Promise<void>;
}

/**
 * Builds the worker's real dependencies from the config: the Data API client (keys from the
 * environment only, never from workflow arguments), the DuckDB warehouse this process owns, the
 * sync core, the Parquet exporter and the verifier.
 */
export async function buildRuntime(config: ResolvedConfig, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Runtime> {
  mkdirSync(config.dataDir, { recursive: true });
  const lake = lakeOf(config);
  // Before 0.3 the lake was Parquet files of glacier-etl's own layout: the first export builds the DuckLake from the warehouse.
  if (existsSync(parquetDir(config.dataDir))) logger.warn(`${parquetDir(config.dataDir)}: the Parquet lake of earlier releases is no longer written (the lake is the ${lake.format === 'iceberg' ? 'Iceberg catalog' : 'DuckLake'} at ${lakeWhere(lake)}); remove it once nothing reads it`);
  const client = createDataApiClient({
    baseUrl: config.api.baseUrl,
    metricsUrl: config.api.metricsUrl,
    apiKeys: apiKeysFromEnv(env),
    apiKeyHeader: config.api.apiKeyHeader,
    tier: config.api.tier,
    keyBudgets: keyBudgets(apiKeysFromEnv(env).length, config.api),
    concurrency: config.api.concurrency,
    requestTimeoutMs: config.api.requestTimeoutMs,
    maxRetries: config.api.maxRetries,
    maxQuotaWaitMs: config.api.maxQuotaWaitMs,
    logger: logger.child({ component: 'api' }),
  });
  const warehouse = await openWarehouse(ownWarehousePath(config), {
    memoryLimit: config.warehouse.memoryLimit,
    checkpointThreshold: config.warehouse.checkpointThreshold,
    threads: config.warehouse.threads,
    onMemoryRelief: (cause, how) =>
      logger.warn({ reason: (cause instanceof Error ? cause.message : String(cause)).split('\n')[0] }, how ? `DuckDB ran out of buffer memory in a commit: committing the batch ${how} (raise warehouse.memoryLimit if this repeats)` : 'DuckDB ran out of buffer memory in a commit: checkpointed and retrying it (raise warehouse.memoryLimit if this repeats)'),
    onReopen: (cause) => logger.error({ err: cause }, 'DuckDB raised a fatal error: warehouse file opened again (the failed batch is retried from its checkpoint)'),
    onCheckpointError: (cause) => logger.warn({ reason: (cause instanceof Error ? cause.message : String(cause)).split('\n')[0] }, 'warehouse checkpoint after a write failed (the write stands; DuckDB checkpoints at a later commit)'),
  });
  const apiKeyCount = apiKeysFromEnv(env).length;
  const metrics =
    config.worker.metricsPort === undefined
      ? undefined
      : await startWorkerMetrics({ port: config.worker.metricsPort, cuPerDay: TIER_BUDGETS[apiKeyCount ? config.api.tier : 'none'].perDay, logger: logger.child({ component: 'metrics' }) });
  metrics?.watchClient(() => client.stats());
  metrics?.watchWarehouse(() => warehouse.memoryUse());
  // With metrics on, the sync core sees observed wrappers of its client and warehouse (see activities/observe/).
  const observer = metrics?.observer;
  const syncCore = createSyncCore({
    client: observer ? observeCalls(client, observer) : client,
    warehouse: observer ? observeCommits(warehouse, observer) : warehouse,
    config,
    logger: logger.child({ component: 'sync' }),
  });
  const sync = observer ? observeSync(syncCore, observer) : syncCore;
  return {
    warehouse,
    deps: {
      logger,
      sync,
      sweepConcurrency: config.sweepConcurrency ?? SWEEP_CONCURRENCY,
      exporter: { exportParquet: (input) => exportLake(warehouse, allTables(), lake, { ...input, shard: config.shard }) },
      status: {
        listCheckpoints: () => warehouse.listCheckpoints(),
        streamCosts: () => streamCosts(warehouse),
        listDrift: () => warehouse.listDrift(),
        storageVersions: async () => ({
          warehouse: { version: (await warehouse.schemaVersion()) ?? null, current: WAREHOUSE_SCHEMA_VERSION },
          lake: { format: lake.format, catalog: lakeWhere(lake) },
        }),
      },
      verifier: createVerifier({ warehouse, client, config, logger: logger.child({ component: 'verify' }), planPartitions: (input) => sync.planPartitions(input) }),
      maintenance: {
        applyRetention: () => applyRetention(warehouse, { runRecordsDays: config.warehouse.runRecordsDays }),
        recordRunSize: (runId) => recordRunSize(warehouse, { runId, tables: allTables().map((t) => t.name) }),
      },
      report: { reportData: () => loadReportData((sql) => warehouse.query(sql), { source: ownWarehousePath(config) }) },
      ...(config.shard ? { shard: createShardLedger(warehouse, config.shard) } : {}),
    },
    metrics,
    async close() {
      await metrics?.close();
      await warehouse.close();
    },
  };
}
