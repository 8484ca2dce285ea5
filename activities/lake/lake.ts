import { closeSync, existsSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../warehouse/identifier.ts';
import { firstLine, loadExtensions, type LakeExtension } from './extensions.ts';

/**
 * The lake analysts read: a DuckLake (a catalog database and Parquet files under a data path) or
 * Iceberg tables behind a REST catalog, attached to a DuckDB connection through their extensions: the
 * export's to the warehouse's own instance, `glacier-etl sql`'s and analysts' to theirs. Config `lake`
 * (common/config.ts); defaults resolved by worker/paths.ts lakeOf.
 */
export type LakeSettings = DuckLakeSettings | IcebergSettings;

type S3Settings = { endpoint?: string; region?: string; urlStyle?: 'path' | 'vhost'; useSsl?: boolean };

export interface DuckLakeSettings {
  format: 'ducklake';
  /** `sqlite:<file>` (the default), `postgres:<libpq conninfo, no password>` or `duckdb:<file>` (one process at a time). */
  catalog: string;
  /** A directory, or `s3://bucket/prefix/`. */
  dataPath: string;
  /** S3-compatible storage, for s3:// data paths: where, never who (credentials: the AWS provider chain and environment). */
  s3?: S3Settings;
  /** Days of nights time travel reaches: older snapshots expire, and the files only they held are deleted (maintenance.ts). */
  snapshotDays: number;
}

/**
 * An Iceberg REST catalog. Its credentials come from the environment only (icebergSecret); sigv4 signs
 * with the AWS provider chain. Upkeep (snapshot expiry, compaction) is the catalog's (docs/nights.md).
 */
export interface IcebergSettings {
  format: 'iceberg';
  endpoint: string;
  warehouse: string;
  /** The namespace of the lake's tables (`main` is DuckDB's own). */
  namespace: string;
  auth: 'none' | 'oauth2' | 'token' | 'sigv4';
  oauth2ServerUri?: string;
  oauth2Scope?: string;
  /** Where the catalog's data is, when DuckDB writes it with its own S3 access (credentials: the AWS provider chain). */
  s3?: S3Settings;
}

/** Where the lake is, for messages: the DuckLake catalog, or the Iceberg catalog's endpoint and warehouse. */
export const lakeWhere = (lake: LakeSettings): string => (lake.format === 'iceberg' ? `${lake.endpoint} (warehouse ${lake.warehouse})` : lake.catalog);

/** The schema of the lake's tables in the attached catalog. */
export const lakeNamespace = (lake: LakeSettings): string => (lake.format === 'iceberg' ? lake.namespace : 'main');

export interface AttachOptions {
  /** The name the lake is attached as (default `lake`). */
  alias?: string;
  readOnly?: boolean;
  /** Time travel: the lake as of this snapshot (lake.snapshots() lists them, one per exported night). */
  snapshot?: number;
}

/** The catalog's kind and where it is (`sqlite:`, `postgres:`, `duckdb:`; a bare path is a DuckDB file). */
export function catalogOf(catalog: string): { kind: 'sqlite' | 'postgres' | 'duckdb'; target: string } {
  const m = /^(sqlite|postgres|duckdb):(.*)$/s.exec(catalog);
  return m ? { kind: m[1] as 'sqlite' | 'postgres' | 'duckdb', target: m[2] } : { kind: 'duckdb', target: catalog };
}

const isS3 = (dataPath: string) => /^s3a?:\/\//.test(dataPath);

/** The lake writes to object storage with DuckDB's own S3 access (the AWS provider chain); Iceberg's sigv4 signs with the same. */
const usesS3 = (lake: LakeSettings) => (lake.format === 'iceberg' ? lake.s3 !== undefined || lake.auth === 'sigv4' : isS3(lake.dataPath));

/** The extensions a lake needs: ducklake, its catalog's scanner, and httpfs + aws for object storage; iceberg after avro, with httpfs. */
export function lakeExtensions(lake: LakeSettings): LakeExtension[] {
  if (lake.format === 'iceberg') return ['avro', 'httpfs', 'iceberg', ...(usesS3(lake) ? (['aws'] as const) : [])];
  const { kind } = catalogOf(lake.catalog);
  const catalog: LakeExtension[] = kind === 'sqlite' ? ['sqlite_scanner'] : kind === 'postgres' ? ['postgres_scanner'] : [];
  return ['ducklake', ...catalog, ...(isS3(lake.dataPath) ? (['httpfs', 'aws'] as const) : [])];
}

/** The error of a lake operation as one line naming the catalog or the bucket (never a credential: none is in either). */
export class LakeError extends Error {
  override name = 'LakeError';
}

/** The SQL an analyst runs to attach the lake read-only (docs/schema.md shows it for the DuckDB CLI, Python and R). */
export function attachSql(lake: LakeSettings, options: AttachOptions = {}): string {
  if (lake.format === 'iceberg') {
    // Time travel in Iceberg is per table: SELECT ... FROM t AT (VERSION => <snapshot id>) or AT (TIMESTAMP => ...).
    if (options.snapshot !== undefined) throw new LakeError(`lake catalog ${lakeWhere(lake)}: Iceberg time travel is per table: AT (VERSION => <snapshot id>) or AT (TIMESTAMP => <time>)`);
    const auth = lake.auth === 'token' ? 'oauth2' : lake.auth;
    const opts = ['TYPE iceberg', `ENDPOINT ${sqlString(lake.endpoint)}`, `AUTHORIZATION_TYPE ${sqlString(auth)}`, ...(lake.auth === 'oauth2' || lake.auth === 'token' ? [`SECRET ${ICEBERG_SECRET}`] : [])];
    return `ATTACH ${sqlString(lake.warehouse)} AS ${options.alias ?? 'lake'} (${[...opts, ...(options.readOnly ? ['READ_ONLY'] : [])].join(', ')})`;
  }
  const { kind, target } = catalogOf(lake.catalog);
  // A writer inlines no rows: flushing them broke other processes' reads (docs/nights.md, The lake).
  const opts = [`DATA_PATH ${sqlString(lake.dataPath)}`, ...(options.readOnly ? ['READ_ONLY'] : ['DATA_INLINING_ROW_LIMIT 0']), ...(options.snapshot !== undefined ? [`SNAPSHOT_VERSION ${Math.trunc(options.snapshot)}`] : [])];
  return `ATTACH ${sqlString(`ducklake:${kind === 'duckdb' ? target : `${kind}:${target}`}`)} AS ${options.alias ?? 'lake'} (${opts.join(', ')})`;
}

/**
 * Puts a new SQLite catalog into WAL mode, where readers never block the writer (docs/nights.md, The
 * lake). DuckDB's sqlite extension wraps every statement in a transaction, where SQLite refuses
 * `PRAGMA journal_mode=WAL`, so the two header bytes it persists (18 and 19: 2,
 * https://www.sqlite.org/fileformat.html) are written while no one has the file open.
 */
function walMode(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    const header = Buffer.alloc(20);
    readSync(fd, header, 0, 20, 0);
    if (header.toString('latin1', 0, 15) === 'SQLite format 3' && header[18] === 1 && header[19] === 1 && !existsSync(`${path}-journal`)) writeSync(fd, Buffer.from([2, 2]), 0, 2, 18);
  } finally {
    closeSync(fd);
  }
}

/** A new SQLite catalog, made whole under its own name, then linked into place (the first shard's link wins; none opens a half-made one). */
async function createSqliteCatalog(connection: DuckDBConnection, lake: DuckLakeSettings, target: string): Promise<void> {
  const draft = `${target}.new-${process.pid}-${Date.now()}`;
  try {
    await connection.run(attachSql({ ...lake, catalog: `sqlite:${draft}` }, { alias: 'glacier_new_lake' }));
    await connection.run('DETACH glacier_new_lake');
    walMode(draft);
    linkSync(draft, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** The S3 secret from the AWS provider chain (environment, profile, instance role), scoped to a DuckLake's bucket. */
async function s3Secret(connection: DuckDBConnection, lake: LakeSettings): Promise<void> {
  const s3 = lake.s3 ?? {};
  const settings = [
    'TYPE s3',
    'PROVIDER credential_chain',
    ...(lake.format === 'ducklake' ? [`SCOPE ${sqlString(lake.dataPath.replace(/^(s3a?:\/\/[^/]+).*$/, '$1'))}`] : []),
    ...(s3.endpoint ? [`ENDPOINT ${sqlString(s3.endpoint)}`] : []),
    ...(s3.region ? [`REGION ${sqlString(s3.region)}`] : []),
    ...(s3.urlStyle ? [`URL_STYLE ${sqlString(s3.urlStyle)}`] : []),
    ...(s3.useSsl !== undefined ? [`USE_SSL ${s3.useSsl}`] : []),
  ];
  try {
    await connection.run(`CREATE OR REPLACE SECRET glacier_lake_s3 (${settings.join(', ')})`);
  } catch (error) {
    throw new LakeError(`lake ${lake.format === 'ducklake' ? `data path ${lake.dataPath}` : `catalog ${lakeWhere(lake)}`}: no credentials from the AWS provider chain (environment, profile, instance role): ${firstLine(error)}`, { cause: error });
  }
}

const ICEBERG_SECRET = 'glacier_lake_iceberg';

/**
 * The Iceberg catalog's credentials from the environment (GLACIER_ICEBERG_CLIENT_ID and
 * GLACIER_ICEBERG_CLIENT_SECRET for oauth2, GLACIER_ICEBERG_TOKEN for token) as a temporary secret of
 * this DuckDB instance, so no statement text, log or catalog holds them. An error names the variables,
 * never their values, and carries no cause that could.
 */
async function icebergSecret(connection: DuckDBConnection, lake: IcebergSettings, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (lake.auth !== 'oauth2' && lake.auth !== 'token') return;
  const vars = lake.auth === 'token' ? { TOKEN: 'GLACIER_ICEBERG_TOKEN' } : { CLIENT_ID: 'GLACIER_ICEBERG_CLIENT_ID', CLIENT_SECRET: 'GLACIER_ICEBERG_CLIENT_SECRET' };
  const missing = Object.values(vars).filter((v) => !env[v]);
  if (missing.length) throw new LakeError(`lake catalog ${lakeWhere(lake)}: auth ${lake.auth} needs ${missing.join(' and ')} in the environment`);
  const values = Object.values(vars).map((v) => env[v]!);
  // The token URL and scope go here too: DuckDB refuses them on an ATTACH that names a secret.
  const options = [
    ...Object.entries(vars).map(([option, v]) => `${option} ${sqlString(env[v]!)}`),
    ...(lake.auth === 'oauth2' ? [lake.oauth2ServerUri ? `OAUTH2_SERVER_URI ${sqlString(lake.oauth2ServerUri)}` : `ENDPOINT ${sqlString(lake.endpoint)}`] : []),
    ...(lake.auth === 'oauth2' && lake.oauth2Scope ? [`OAUTH2_SCOPE ${sqlString(lake.oauth2Scope)}`] : []),
  ];
  try {
    await connection.run(`CREATE OR REPLACE TEMPORARY SECRET ${ICEBERG_SECRET} (TYPE iceberg, ${options.join(', ')})`);
  } catch (error) {
    throw new LakeError(`lake catalog ${lakeWhere(lake)}: the credentials of ${Object.values(vars).join(' and ')}: ${values.reduce((line, v) => line.replaceAll(v, '[redacted]'), firstLine(error))}`);
  }
}

/**
 * Attaches the lake: the extensions loaded, local directories made, a bucket listed by a writer (so a
 * bad one fails before a catalog is made), the catalog attached or created. Errors: one line naming the
 * catalog or bucket.
 */
export async function attachLake(connection: DuckDBConnection, lake: LakeSettings, options: AttachOptions = {}): Promise<string> {
  const alias = options.alias ?? 'lake';
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`lake alias ${JSON.stringify(alias)}: expected a plain identifier`);
  await loadExtensions(connection, lakeExtensions(lake));
  if (usesS3(lake)) await s3Secret(connection, lake);
  if (lake.format === 'iceberg') {
    await icebergSecret(connection, lake);
    try {
      await connection.run(attachSql(lake, { ...options, alias }));
      // Another shard may create the namespace at the same moment: its 409 says it exists.
      if (!options.readOnly) await connection.run(`CREATE SCHEMA IF NOT EXISTS ${alias}.${lake.namespace}`).catch((error: unknown) => {
          if (!/already exists/i.test(String(error))) throw error;
        });
    } catch (error) {
      throw error instanceof LakeError ? error : new LakeError(`lake catalog ${lakeWhere(lake)}: ${firstLine(error)}`, { cause: error });
    }
    return alias;
  }
  const { kind, target } = catalogOf(lake.catalog);
  if (kind !== 'postgres' && !options.readOnly) mkdirSync(dirname(target), { recursive: true });
  if (!isS3(lake.dataPath) && !options.readOnly) mkdirSync(lake.dataPath, { recursive: true });
  if (isS3(lake.dataPath) && !options.readOnly) {
    try {
      await connection.run(`SELECT count(*) FROM glob(${sqlString(`${lake.dataPath.replace(/\/?$/, '/')}*`)})`);
    } catch (error) {
      throw new LakeError(`lake data path ${lake.dataPath}: ${firstLine(error)}`, { cause: error });
    }
  }
  try {
    if (kind === 'sqlite' && !options.readOnly && !existsSync(target)) await createSqliteCatalog(connection, lake, target);
    await connection.run(attachSql(lake, { ...options, alias }));
  } catch (error) {
    throw new LakeError(`lake catalog ${lake.catalog}: ${firstLine(error)}`, { cause: error });
  }
  return alias;
}
