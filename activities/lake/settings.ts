/**
 * What a lake is (config `lake`, common/config.ts; defaults resolved by worker/paths.ts lakeOf): a
 * DuckLake (lake.ts) or Iceberg tables behind a REST catalog (iceberg.ts), and the one-line error
 * that names it.
 */
export type LakeSettings = DuckLakeSettings | IcebergSettings;

export type S3Settings = { endpoint?: string; region?: string; urlStyle?: 'path' | 'vhost'; useSsl?: boolean };

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

/** An Iceberg REST catalog; its credentials come from the environment only (iceberg.ts). */
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

/** The error of a lake operation as one line naming the catalog or the bucket (never a credential: none is in either). */
export class LakeError extends Error {
  override name = 'LakeError';
}

/** An error's first line; an Iceberg catalog's JSON body (its Java stack on one line) cut to its type and message. */
export const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0].replace(/, body: (\{.*)$/, (body: string, json: string) => {
    try {
      const e = (JSON.parse(json) as { error?: { type?: string; message?: string } }).error;
      return e?.message ? `: ${e.type ?? 'error'}: ${e.message}` : body;
    } catch {
      return body.slice(0, 300);
    }
  });
