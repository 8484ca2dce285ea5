import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBExtension } from '../warehouse/extensions.ts';
import { sqlString } from '../warehouse/identifier.ts';
import { firstLine, LakeError, lakeWhere, type IcebergSettings } from './settings.ts';

/**
 * The lake as Iceberg tables behind a REST catalog, written by the export's own statements through
 * DuckDB's iceberg extension. What differs from a DuckLake is here: the types Iceberg lacks, the
 * catalog's credentials from the environment, the attach, and a check of each night's commit. The
 * export also makes Iceberg's tables before the night's transaction. Upkeep (snapshot expiry,
 * compaction) is the catalog's (docs/nights.md, Iceberg upkeep).
 */

/** Warehouse types Iceberg lacks, and the lake's type for each. */
export const ICEBERG_TYPES: Record<string, string> = { HUGEINT: 'DECIMAL(38,0)', UBIGINT: 'DECIMAL(20,0)', UINTEGER: 'BIGINT', USMALLINT: 'INTEGER', UTINYINT: 'INTEGER', SMALLINT: 'INTEGER', TINYINT: 'INTEGER', JSON: 'VARCHAR' };

const ICEBERG_SECRET = 'glacier_lake_iceberg';

/** DuckDB writes the catalog's data with its own S3 access (the AWS provider chain); sigv4 signs with the same. */
export const icebergUsesS3 = (lake: IcebergSettings) => lake.s3 !== undefined || lake.auth === 'sigv4';

/** iceberg after avro, with httpfs. */
export const icebergExtensions = (lake: IcebergSettings): DuckDBExtension[] => ['avro', 'httpfs', 'iceberg', ...(icebergUsesS3(lake) ? (['aws'] as const) : [])];

/** The ATTACH of the catalog. Time travel in Iceberg is per table: SELECT ... FROM t AT (VERSION => <snapshot id>). */
export function icebergAttachSql(lake: IcebergSettings, alias: string, readOnly = false): string {
  const auth = lake.auth === 'token' ? 'oauth2' : lake.auth;
  const opts = ['TYPE iceberg', `ENDPOINT ${sqlString(lake.endpoint)}`, `AUTHORIZATION_TYPE ${sqlString(auth)}`, ...(auth === 'oauth2' ? [`SECRET ${ICEBERG_SECRET}`] : []), ...(readOnly ? ['READ_ONLY'] : [])];
  return `ATTACH ${sqlString(lake.warehouse)} AS ${alias} (${opts.join(', ')})`;
}

/**
 * The catalog's credentials from the environment (GLACIER_ICEBERG_CLIENT_ID and
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

/** Attaches the catalog (its extensions loaded by the caller) and, for a writer, makes the namespace. */
export async function attachIceberg(connection: DuckDBConnection, lake: IcebergSettings, alias: string, readOnly = false): Promise<void> {
  await icebergSecret(connection, lake);
  try {
    await connection.run(icebergAttachSql(lake, alias, readOnly));
    // Another shard may create the namespace at the same moment: its 409 says it exists.
    if (!readOnly) await connection.run(`CREATE SCHEMA IF NOT EXISTS ${alias}.${lake.namespace}`).catch((error: unknown) => {
        if (!/already exists/i.test(String(error))) throw error;
      });
  } catch (error) {
    throw error instanceof LakeError ? error : new LakeError(`lake catalog ${lakeWhere(lake)}: ${firstLine(error)}`, { cause: error });
  }
}

/**
 * A night, checked: another pass on a fresh attach must find nothing to change, at most `attempts`
 * times. The Apache reference REST server answers 200 to a multi-table commit that met another
 * writer's and keeps nothing of a table both wrote (3 of 4 runs of two shards; docs/nights.md).
 * Returns the rows the checking passes wrote again.
 */
export async function checkIceberg(changed: number, lake: IcebergSettings, attempts: number, freshPass: () => Promise<number>): Promise<number> {
  let repaired = 0;
  for (let last = changed, checks = 0; last > 0; checks++) {
    if (checks >= attempts) throw new LakeError(`lake catalog ${lakeWhere(lake)}: the night's commit was accepted and not kept ${attempts} times (a catalog whose transactions do not detect concurrent commits)`);
    last = await freshPass();
    repaired += last;
  }
  return repaired;
}
