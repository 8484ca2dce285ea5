import { closeSync, existsSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadExtensions, type DuckDBExtension } from '../warehouse/extensions.ts';
import { sqlString } from '../warehouse/identifier.ts';
import { attachIceberg, icebergAttachSql, icebergExtensions, icebergUsesS3 } from './iceberg.ts';
import { firstLine, LakeError, lakeWhere, type DuckLakeSettings, type LakeSettings } from './settings.ts';

/**
 * The lake attached to a DuckDB connection through its extensions: the export's to the warehouse's
 * own instance, `glacier-etl sql`'s and analysts' to theirs. A DuckLake is a catalog database and
 * Parquet files under a data path; an Iceberg lake is attached by iceberg.ts.
 */

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

/** The lake writes to object storage with DuckDB's own S3 access (the AWS provider chain). */
const usesS3 = (lake: LakeSettings) => (lake.format === 'iceberg' ? icebergUsesS3(lake) : isS3(lake.dataPath));

/** The extensions a lake needs: ducklake, its catalog's scanner, and httpfs + aws for object storage. */
export function lakeExtensions(lake: LakeSettings): DuckDBExtension[] {
  if (lake.format === 'iceberg') return icebergExtensions(lake);
  const { kind } = catalogOf(lake.catalog);
  const catalog: DuckDBExtension[] = kind === 'sqlite' ? ['sqlite_scanner'] : kind === 'postgres' ? ['postgres_scanner'] : [];
  return ['ducklake', ...catalog, ...(isS3(lake.dataPath) ? (['httpfs', 'aws'] as const) : [])];
}

/** The SQL an analyst runs to attach the lake read-only (docs/schema.md shows it for the DuckDB CLI, Python and R). */
export function attachSql(lake: LakeSettings, options: AttachOptions = {}): string {
  if (lake.format === 'iceberg') {
    if (options.snapshot !== undefined) throw new LakeError(`lake catalog ${lakeWhere(lake)}: Iceberg time travel is per table: AT (VERSION => <snapshot id>) or AT (TIMESTAMP => <time>)`);
    return icebergAttachSql(lake, options.alias ?? 'lake', options.readOnly);
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
  if (lake.format === 'iceberg') return attachIceberg(connection, lake, alias, options.readOnly).then(() => alias);
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
