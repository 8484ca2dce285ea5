import { z } from 'zod';
import { bech32 } from '@scure/base';
import type { StreamName } from './streamNames.ts';
import { DUCKDB_SIZE } from './duckdbSize.ts';
import { SHARD_NAME } from './shards.ts';

/**
 * The pipeline configuration: one YAML or JSON file, validated with zod, then overridden by the
 * environment. Secrets are never read from the file: API keys come from GLACIER_API_KEY only.
 *
 * Shared kernel: the shape and its types live here so activities can take a ResolvedConfig without
 * importing the worker. Pure zod (no file or environment access, no Node built-ins); the loader, the
 * environment overrides and the page-size check against each endpoint's largest page (it needs the
 * stream catalog) are the worker's (worker/config.ts).
 */

/** The largest page of any endpoint (holder metrics): a single page-size cap above it means nothing. */
const LARGEST_PAGE = 5000;
const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
const PRIMARY_CHAINS = ['p-chain', 'x-chain', 'c-chain'] as const;
export const QUOTA_TIERS = ['none', 'free', 'base', 'growth', 'pro'] as const;

const bech32Address = z
  .string()
  .regex(/^(?:[PX]-)?(?:avax|fuji)1[02-9ac-hj-np-z]{38}$/, 'expected a bech32 address like avax1… (optionally P- or X- prefixed)')
  .refine(hasValidBech32Checksum, 'bech32 checksum does not match (a typo in the address?)');

/** The charset regex accepts typos; the bech32 checksum catches them. */
function hasValidBech32Checksum(address: string): boolean {
  try {
    bech32.decode(address.replace(/^[PX]-/, '') as `${string}1${string}`);
    return true;
  } catch {
    return false;
  }
}
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte hex address');
const nodeId = z.string().regex(/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,40}$/, 'expected a node id like NodeID-…');
const evmChainId = z.string().regex(/^(?:\d{1,20}|[1-9A-HJ-NP-Za-km-z]{40,60})$/, 'expected a numeric EVM chain id or a base58 blockchain id');
const httpUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL');

const customPlan = z.strictObject({
  perMinute: z.number().int().positive(),
  perDay: z.number().int().positive(),
});

const evmChainSchema = z.strictObject({
  chainId: evmChainId,
  /** First block for range streams on a backfill (default: genesis). */
  fromBlock: z.number().int().nonnegative().optional(),
  /** Blocks per range partition for range streams. */
  rangeSize: z.number().int().positive().default(1_000_000),
  addresses: z.array(evmAddress).default([]),
  contracts: z.array(evmAddress).default([]),
  /** Transactions whose full detail is fetched (evm.transaction_details). */
  transactions: z.array(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 0x-prefixed 32-byte hash')).default([]),
  nfts: z.array(z.strictObject({ contract: evmAddress, tokenId: z.string().regex(/^\d+$/, 'expected a decimal token id') })).default([]),
  /** Threshold for holder metrics (metrics.holders), smallest unit, decimal string. */
  holderThreshold: z.string().regex(/^\d+$/, 'expected a decimal string').default('0'),
});

const networkSchema = z.strictObject({
  network: z.enum(NETWORKS),
  chains: z.array(z.enum(PRIMARY_CHAINS)).min(1).default(['p-chain', 'x-chain', 'c-chain']),
  addresses: z.array(bech32Address).default([]),
  nodeIds: z.array(nodeId).default([]),
  /** Also track rewards for every node id the validators stream finds. */
  rewardsForDiscoveredValidators: z.boolean().default(false),
});

/**
 * What a stream does with fields the API sends that it does not map (schema drift), in the spirit of
 * dlt's schema contracts: `evolve` keeps them in the table's `_extra` column, `freeze` stops the
 * partition at the first new field, `discard` drops them. All three record the drift.
 */
export const STREAM_CONTRACTS = ['evolve', 'freeze', 'discard'] as const;
export type StreamContract = (typeof STREAM_CONTRACTS)[number];

const shardName = z.string().regex(SHARD_NAME, 'expected a shard name: lowercase letters, digits and dashes, at most 32');

/** S3-compatible storage for the lake's data: where it is, never who (no keys here: the AWS provider chain). */
const s3Schema = z
  .strictObject({
    endpoint: z.string().min(1).optional(),
    region: z.string().min(1).optional(),
    urlStyle: z.enum(['path', 'vhost']).optional(),
    useSsl: z.boolean().optional(),
  })
  .optional();

/**
 * The lake: a table format, written through DuckDB's extensions. Credentials never go here: an S3
 * bucket's come from the AWS provider chain (environment, profile, instance role), a Postgres
 * catalog's from PGPASSWORD or ~/.pgpass, an Iceberg catalog's from GLACIER_ICEBERG_* variables.
 */
const ducklakeSchema = z.strictObject({
  format: z.literal('ducklake').default('ducklake'),
  /**
   * Where the catalog is: sqlite:<file> (default sqlite:<dataDir>/lake/catalog.sqlite; readers and
   * shards on one machine share it), postgres:<libpq conninfo> (workers on several machines), or
   * duckdb:<file> (one process at a time: no reader while a worker exports).
   */
  catalog: z
    .string()
    .regex(/^(sqlite|postgres|duckdb):.+/s, 'expected sqlite:<file>, postgres:<conninfo> or duckdb:<file>')
    .refine((c) => !/password\s*=/i.test(c), 'no password in the config: PGPASSWORD or ~/.pgpass')
    .optional(),
  /** Where the Parquet files go: a directory (default <dataDir>/lake/data/) or s3://bucket/prefix/. */
  dataPath: z.string().min(1).optional(),
  /** S3-compatible storage for an s3:// dataPath. */
  s3: s3Schema,
  /** Days of nights time travel reaches; older snapshots expire and their files are deleted (docs/nights.md, Lake maintenance). */
  snapshotDays: z.number().positive().default(30),
});

/**
 * An Iceberg REST catalog (Polaris, Lakekeeper, Nessie, Glue, S3 Tables, ...): the catalog decides
 * where the data goes. `auth`: none; oauth2 (client credentials from GLACIER_ICEBERG_CLIENT_ID and
 * GLACIER_ICEBERG_CLIENT_SECRET); token (a bearer token from GLACIER_ICEBERG_TOKEN); sigv4 (AWS
 * Glue and S3 Tables: the AWS provider chain).
 */
const icebergSchema = z.strictObject({
  format: z.literal('iceberg'),
  endpoint: z
    .string()
    .regex(/^https?:\/\/[^/@\s]+(\/\S*)?$/, 'expected the catalog\'s http(s) URL, without credentials')
    .refine((u) => !/[?&](token|secret|credential|password)=/i.test(u), 'no credentials in the URL: GLACIER_ICEBERG_TOKEN or GLACIER_ICEBERG_CLIENT_ID/SECRET'),
  /** The catalog's warehouse (Polaris: the catalog name; Glue: the account id). */
  warehouse: z.string().min(1),
  /** The namespace holding the lake's tables (DuckDB's Iceberg catalog cannot write to one named main). */
  namespace: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'expected a plain lowercase identifier')
    .refine((n) => n !== 'main', 'main is DuckDB\'s own schema name: pick another')
    .default('glacier'),
  auth: z.enum(['none', 'oauth2', 'token', 'sigv4']).default('none'),
  /** The OAuth2 token URL (default: the catalog's /v1/oauth/tokens) and scope (Polaris: PRINCIPAL_ROLE:ALL). */
  oauth2ServerUri: z.url().optional(),
  oauth2Scope: z.string().min(1).optional(),
  /** S3-compatible storage the catalog puts the data on, when DuckDB needs its own S3 access (no vended credentials). */
  s3: s3Schema,
});

const lakeSchema = z.discriminatedUnion('format', [ducklakeSchema, icebergSchema], { error: (issue) => (issue.code === 'invalid_union' ? 'expected ducklake (the default) or iceberg' : undefined) }).prefault({});

/** Batches a sync sweep runs at once when the config does not say (sweepConcurrency). */
export const SWEEP_CONCURRENCY = 64;

export const pipelineConfigSchema = z.strictObject({
  dataDir: z.string().min(1).default('./data'),
  /** The lake analysts read (activities/lake/): every shard exports into it. */
  lake: lakeSchema,
  /**
   * Shard names (sharded layout: each `glacier-etl worker --shard <name>` owns its own DuckDB file
   * and activity task queue). Empty, the default: one worker owns one warehouse.
   */
  shards: z
    .array(shardName)
    .default([])
    .refine((names) => new Set(names).size === names.length, 'shard names must be unique'),
  api: z
    .strictObject({
      baseUrl: httpUrl.default('https://glacier-api.avax.network'),
      metricsUrl: httpUrl.default('https://metrics.avax.network'),
      apiKeyHeader: z.string().min(1).default('x-service-api-key'),
      tier: z.enum(QUOTA_TIERS).default('free'),
      /** A plan outside the tier table (CU per minute and per day); wins over `tier`. */
      plan: customPlan.optional(),
      /**
       * One entry per key of GLACIER_API_KEY, in the same order, when the keys have different tiers
       * or plans ({ tier: pro } or { perMinute, perDay }). Only budgets: keys never go in this file.
       */
      keys: z.array(z.union([z.strictObject({ tier: z.enum(QUOTA_TIERS) }), customPlan])).optional(),
      /** Requests in flight at once, across all partitions. */
      concurrency: z.number().int().min(1).max(256).default(8),
      /**
       * Streams request their endpoint's largest page (the cheapest per item: a request costs its
       * weight whatever its size). A number lowers every stream to at most that many items; a map
       * lowers named streams (e.g. to keep responses small). Checked against each endpoint's largest page.
       */
      pageSize: z.union([z.number().int().min(1).max(LARGEST_PAGE), z.record(z.string(), z.number().int().min(1))]).optional(),
      requestTimeoutMs: z.number().int().min(100).default(30_000),
      maxRetries: z.number().int().min(0).max(50).default(8),
      /** Longest quota wait done inside a request; longer waits pause the partition workflow durably. */
      maxQuotaWaitMs: z.number().int().min(0).default(90_000),
    })
    .prefault({}),
  temporal: z
    .strictObject({
      namespace: z.string().min(1).default('default'),
      taskQueue: z.string().min(1).default('glacier-etl'),
    })
    .prefault({}),
  warehouse: z
    .strictObject({
      /** DuckDB's buffer limit, as DuckDB spells sizes ('64MB', '1GB'); past it, merges and exports spill to disk. */
      memoryLimit: z
        .string()
        .regex(DUCKDB_SIZE, "a size such as '64MB' or '1GB'")
        .default('128MB'),
      /**
       * WAL size past which DuckDB checkpoints (its checkpoint_threshold); absent: a quarter of
       * memoryLimit, at least DuckDB's own 16 MiB. Each checkpoint rewrites the tables' open row
       * groups; rows not yet checkpointed hold about 1.6x their WAL size of the buffer.
       */
      checkpointThreshold: z.string().regex(DUCKDB_SIZE, "a size such as '16MB' or '1GB'").optional(),
      /**
       * DuckDB's threads for the worker's warehouse; absent: 1 (DEFAULT_THREADS in
       * activities/warehouse/warehouse.ts). One costs the least CPU per statement; more let one
       * large statement (a long history's export) use more cores (docs/operations.md "Threads").
       */
      threads: z.number().int().min(1).optional(),
      /**
       * Days a run record (_glacier_sync_runs: one row per run and partition, the CU accounting of
       * `status` and the report) is kept; each pipeline run deletes older ones. 0 keeps them all.
       */
      runRecordsDays: z.number().int().min(0).default(90),
    })
    .prefault({}),
  worker: z
    .strictObject({
      /** JS heap (MB) past which the worker process runs a full garbage collection; 0 leaves V8 to itself. */
      heapBudgetMb: z.number().int().min(0).default(96),
      /** Port of the Prometheus /metrics endpoint (also GLACIER_METRICS_PORT); absent = not served. */
      metricsPort: z.number().int().min(0).max(65535).optional(),
    })
    .prefault({}),
  /** Partitions synced at once (child workflows in flight). */
  partitionConcurrency: z.number().int().min(1).max(256).default(8),
  /**
   * Batches a sync sweep runs at once inside the worker (activities/sweep.ts). A quiet night's batch
   * spends most of its time waiting for the group commit, so more of them share fewer, larger commits;
   * requests stay capped by api.concurrency, and rows wait in memory for at most this many batches.
   * Absent: SWEEP_CONCURRENCY (no default written into a parsed config, so a config the current code
   * writes still loads in a release without the key).
   */
  sweepConcurrency: z.number().int().min(1).max(256).optional(),
  /** Per stream (catalog names, checked by the worker's loader): evolve (default), freeze or discard; see STREAM_CONTRACTS. */
  schemaContracts: z.record(z.string(), z.enum(STREAM_CONTRACTS, { error: () => `expected one of ${STREAM_CONTRACTS.join(', ')}` })).default({}),
  /** Stream names of the catalog (checked, and defaulted to every stream, by the worker's config loader). */
  streams: z.array(z.string().min(1)).min(1).optional(),
  networks: z.array(networkSchema).default([]),
  evmChains: z.array(evmChainSchema).default([]),
});

/** A loaded config: `streams` is always filled (the loader defaults it to every stream of the catalog). */
export type PipelineConfig = Omit<z.infer<typeof pipelineConfigSchema>, 'streams'> & { streams: StreamName[] };

export interface RuntimeEnv {
  GLACIER_BASE_URL?: string;
  GLACIER_METRICS_URL?: string;
  GLACIER_API_KEY?: string;
  GLACIER_DATA_DIR?: string;
  GLACIER_METRICS_PORT?: string;
  /** The lake's catalog and data path (lake.catalog, lake.dataPath). */
  GLACIER_LAKE_CATALOG?: string;
  GLACIER_LAKE_DATA_PATH?: string;
  /** An Iceberg lake's REST catalog URL (lake.endpoint); its credentials: GLACIER_ICEBERG_CLIENT_ID/SECRET or GLACIER_ICEBERG_TOKEN, read where the lake is attached (activities/lake/iceberg.ts). */
  GLACIER_LAKE_ENDPOINT?: string;
  /** Shard names, comma-separated (same as `shards` in the file). */
  GLACIER_SHARDS?: string;
  /** The shard this worker process is (same as `worker --shard`). */
  GLACIER_SHARD?: string;
  TEMPORAL_ADDRESS?: string;
}

/** The resolved configuration: the validated file plus the environment, with an absolute dataDir. */
export interface ResolvedConfig extends PipelineConfig {
  temporalAddress?: string;
  /** How many API keys GLACIER_API_KEY holds (shown by `config check`); never the keys themselves. */
  apiKeyCount: number;
  /** Sharded layout, worker only: the shard this process is (one of `shards`). */
  shard?: string;
}
