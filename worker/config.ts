import { readFileSync } from 'node:fs';
import { resolve, dirname, isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { pipelineConfigSchema, type PipelineConfig, type ResolvedConfig, type RuntimeEnv } from '../common/config.ts';
import { largestPage } from '../activities/api/endpoint.ts';
import { DEFAULT_STREAMS, STREAM_NAMES, STREAMS } from '../activities/streams/catalog.ts';

/**
 * Loads the pipeline configuration: reads the file, validates it, applies the environment. The
 * shape and its types are the shared kernel's (common/config.ts), re-exported here for the CLI and
 * tests that load a config and name its type together.
 */

export type { PipelineConfig, ResolvedConfig, RuntimeEnv };

const unknownStream = (name: string) => `unknown stream "${name}" (streams: ${STREAM_NAMES.join(', ')})`;

/**
 * The kernel's shape plus the rules that need the stream catalog: stream names are the catalog's
 * (every stream but the opt-in ones when the file names none), each page size within its endpoint's largest page.
 */
export const configSchema = pipelineConfigSchema
  .superRefine((config, ctx) => {
    (config.streams ?? []).forEach((name, i) => {
      if (!Object.hasOwn(STREAMS, name)) ctx.addIssue({ code: 'custom', path: ['streams', i], message: unknownStream(name) });
    });
    for (const stream of Object.keys(config.schemaContracts)) {
      if (!Object.hasOwn(STREAMS, stream)) ctx.addIssue({ code: 'custom', path: ['schemaContracts', stream], message: unknownStream(stream) });
    }
    const sizes = config.api.pageSize;
    if (typeof sizes !== 'object') return;
    for (const [stream, size] of Object.entries(sizes)) {
      if (!Object.hasOwn(STREAMS, stream)) {
        ctx.addIssue({ code: 'custom', path: ['api', 'pageSize', stream], message: unknownStream(stream) });
        continue;
      }
      const largest = largestPage(STREAMS[stream].walks);
      if (size > largest) ctx.addIssue({ code: 'custom', path: ['api', 'pageSize', stream], message: `${size} is above the largest page its endpoint allows (${largest})` });
    }
  })
  .transform((config): PipelineConfig => ({ ...config, streams: config.streams ?? [...DEFAULT_STREAMS] }));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(root)';
  return `${path}: ${issue.message}`;
}

/** Validates a parsed config object; throws a ConfigError whose message is one line. */
export function validateConfig(raw: unknown, source = 'config'): PipelineConfig {
  if (raw && typeof raw === 'object' && 'lakeDir' in raw) throw new ConfigError(`${source}: lakeDir: the Parquet lake became a DuckLake: use lake.dataPath and lake.catalog (docs/upgrading.md)`);
  const result = configSchema.safeParse(raw ?? {});
  if (!result.success) {
    const [first] = result.error.issues;
    const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
    throw new ConfigError(`${source}: ${formatIssue(first)}${more}`);
  }
  return result.data;
}

/** Reads, parses and validates a config file (YAML or JSON). */
export function readConfigFile(path: string): PipelineConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${path}: cannot read config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    throw new ConfigError(`${path}: not valid YAML/JSON: ${message}`);
  }
  const config = validateConfig(raw, path);
  // A relative dataDir (or lake path) is relative to the config file, not to wherever the command runs.
  if (!isAbsolute(config.dataDir)) config.dataDir = resolve(dirname(path), config.dataDir);
  resolveLakePaths(config.lake, dirname(path));
  return config;
}

/** A lake's local paths (a file catalog, a directory data path) made absolute against `base`. */
function resolveLakePaths(lake: PipelineConfig['lake'], base: string): void {
  const m = lake.catalog && /^(sqlite|duckdb):(.*)$/s.exec(lake.catalog);
  if (m && !isAbsolute(m[2])) lake.catalog = `${m[1]}:${resolve(base, m[2])}`;
  if (lake.dataPath && !/^[a-z0-9]+:\/\//.test(lake.dataPath) && !isAbsolute(lake.dataPath)) lake.dataPath = resolve(base, lake.dataPath);
}

/** Applies environment overrides; validates them with the same rules as the file. */
export function resolveConfig(config: PipelineConfig, env: RuntimeEnv = process.env): ResolvedConfig {
  const merged = structuredClone(config);
  if (env.GLACIER_BASE_URL) merged.api.baseUrl = env.GLACIER_BASE_URL;
  if (env.GLACIER_METRICS_URL) merged.api.metricsUrl = env.GLACIER_METRICS_URL;
  if (env.GLACIER_DATA_DIR) merged.dataDir = env.GLACIER_DATA_DIR;
  if (env.GLACIER_LAKE_CATALOG) merged.lake.catalog = env.GLACIER_LAKE_CATALOG;
  if (env.GLACIER_LAKE_DATA_PATH) merged.lake.dataPath = env.GLACIER_LAKE_DATA_PATH;
  if ((env as Record<string, string | undefined>).GLACIER_LAKE_DIR) throw new ConfigError('GLACIER_LAKE_DIR: the Parquet lake became a DuckLake; set GLACIER_LAKE_DATA_PATH (and GLACIER_LAKE_CATALOG) instead (docs/upgrading.md)');
  if (env.GLACIER_SHARDS) merged.shards = env.GLACIER_SHARDS.split(',').map((s) => s.trim()).filter(Boolean);
  if (env.GLACIER_METRICS_PORT) merged.worker.metricsPort = /^\d+$/.test(env.GLACIER_METRICS_PORT) ? Number(env.GLACIER_METRICS_PORT) : Number.NaN;
  const checked = validateConfig(merged, 'environment override');
  checked.dataDir = resolve(checked.dataDir);
  resolveLakePaths(checked.lake, process.cwd());
  const apiKeyCount = apiKeysFromEnv(env).length;
  const perKey = checked.api.keys?.length;
  // Budgets pair with keys by position: a count that differs means the pairing is a guess.
  if (perKey !== undefined && apiKeyCount > 0 && perKey !== apiKeyCount) {
    throw new ConfigError(`api.keys: ${perKey} budget entries, but GLACIER_API_KEY holds ${apiKeyCount} keys (one entry per key, same order)`);
  }
  const shard = env.GLACIER_SHARD || undefined;
  if (shard !== undefined && !checked.shards.includes(shard)) {
    throw new ConfigError(checked.shards.length ? `shard "${shard}" is not one of the config's shards (${checked.shards.join(', ')})` : `shard "${shard}": the config names no shards (add shards: [${shard}, …])`);
  }
  return { ...checked, temporalAddress: env.TEMPORAL_ADDRESS || undefined, apiKeyCount, ...(shard ? { shard } : {}) };
}

/** API keys from GLACIER_API_KEY (comma-separated for several keys). Only the worker calls this. */
export function apiKeysFromEnv(env: RuntimeEnv = process.env): string[] {
  return (env.GLACIER_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/** Loads the config file if given (or ./glacier-etl.yaml when present), else the defaults. */
export function loadConfig(path: string | undefined, env: RuntimeEnv = process.env): ResolvedConfig {
  const base = path ? readConfigFile(path) : validateConfig({}, 'defaults');
  return resolveConfig(base, env);
}
