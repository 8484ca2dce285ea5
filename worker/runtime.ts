import { mkdirSync } from 'node:fs';
import type { ActivityDeps } from '../activities/index.ts';
import { createDataApiClient } from '../activities/api/index.ts';
import { keyBudgets } from '../activities/api/quotaBudget.ts';
import { openWarehouse, type Warehouse } from '../activities/warehouse/warehouse.ts';
import { exportParquet } from '../activities/warehouse/export.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import { streamCosts } from '../activities/sync/streamCosts.ts';
import { createVerifier } from '../activities/verify/verifier.ts';
import { apiKeysFromEnv, type ResolvedConfig } from './config.ts';
import type { Logger } from './logger.ts';
import { parquetDir, warehousePath } from './paths.ts';

export interface Runtime {
  deps: ActivityDeps;
  /** The DuckDB warehouse this process owns (tests and benchmarks read it directly). */
  warehouse: Warehouse;
  close(): Promise<void>;
}

/**
 * Builds the worker's real dependencies from the config: the Data API client (keys from the
 * environment only, never from workflow arguments), the DuckDB warehouse this process owns, the
 * sync core, the Parquet exporter and the verifier.
 */
export async function buildRuntime(config: ResolvedConfig, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Runtime> {
  mkdirSync(config.dataDir, { recursive: true });
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
  const warehouse = await openWarehouse(warehousePath(config.dataDir), { memoryLimit: config.warehouse.memoryLimit });
  const sync = createSyncCore({ client, warehouse, config, logger: logger.child({ component: 'sync' }) });
  const outDir = parquetDir(config.dataDir);
  return {
    warehouse,
    deps: {
      logger,
      sync,
      exporter: { exportParquet: (input) => exportParquet(warehouse, outDir, input) },
      status: { listCheckpoints: () => warehouse.listCheckpoints(), streamCosts: () => streamCosts(warehouse) },
      verifier: createVerifier({ warehouse, client, config, logger: logger.child({ component: 'verify' }), planPartitions: (input) => sync.planPartitions(input) }),
    },
    async close() {
      await warehouse.close();
    },
  };
}
