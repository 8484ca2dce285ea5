import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { attachLake, attachSql } from '../../activities/lake/lake.ts';
import { type LakeSettings } from '../../activities/lake/settings.ts';
import { ConfigError, resolveConfig, validateConfig } from '../../worker/config.ts';
import { lakeOf } from '../../worker/paths.ts';

const iceberg = { format: 'iceberg', endpoint: 'https://catalog.example/api/catalog', warehouse: 'avalanche' };

describe('lake.format iceberg', () => {
  it('takes a REST endpoint and a warehouse; namespace glacier and no auth by default; GLACIER_LAKE_ENDPOINT overrides the endpoint', () => {
    const config = resolveConfig(validateConfig({ dataDir: '/d', lake: iceberg }), {});
    expect(lakeOf(config)).toEqual({ ...iceberg, namespace: 'glacier', auth: 'none' });
    expect(lakeOf(resolveConfig(validateConfig({ lake: iceberg }), { GLACIER_LAKE_ENDPOINT: 'http://127.0.0.1:8181/' }))).toMatchObject({ endpoint: 'http://127.0.0.1:8181/' });
    expect(lakeOf(resolveConfig(validateConfig({ dataDir: '/d' }), {}))).toMatchObject({ format: 'ducklake' });
  });

  it('rejects a bad lake in one line: no endpoint, credentials in the URL, namespace main, an unknown format, DuckLake keys or overrides', () => {
    const bad: [unknown, RegExp][] = [
      [{ format: 'iceberg', warehouse: 'w' }, /^f\.yaml: lake\.endpoint: /],
      [{ ...iceberg, endpoint: 'https://user:pw@catalog.example/' }, /^f\.yaml: lake\.endpoint: expected the catalog's http\(s\) URL, without credentials$/],
      [{ ...iceberg, endpoint: 'https://catalog.example/?token=abc' }, /^f\.yaml: lake\.endpoint: no credentials in the URL/],
      [{ ...iceberg, namespace: 'main' }, /^f\.yaml: lake\.namespace: main is DuckDB's own schema name/],
      [{ ...iceberg, auth: 'password' }, /^f\.yaml: lake\.auth: /],
      [{ ...iceberg, clientSecret: 'x' }, /^f\.yaml: lake: Unrecognized key: "clientSecret"$/],
      [{ format: 'parquet' }, /^f\.yaml: lake\.format: expected ducklake \(the default\) or iceberg$/],
    ];
    for (const [lake, message] of bad) expect(() => validateConfig({ lake }, 'f.yaml')).toThrow(message);
    expect(() => resolveConfig(validateConfig({ lake: iceberg }), { GLACIER_LAKE_CATALOG: 'sqlite:/x' })).toThrow(new ConfigError('GLACIER_LAKE_CATALOG: the lake is an Iceberg REST catalog: set GLACIER_LAKE_ENDPOINT (or lake.endpoint) instead'));
  });

  it('keeps the credentials out of the ATTACH statement, and names the missing variables, not values, in one line', async () => {
    const oauth = { ...iceberg, namespace: 'glacier', auth: 'oauth2', oauth2Scope: 'PRINCIPAL_ROLE:ALL' } as LakeSettings;
    expect(attachSql(oauth)).toBe("ATTACH 'avalanche' AS lake (TYPE iceberg, ENDPOINT 'https://catalog.example/api/catalog', AUTHORIZATION_TYPE 'oauth2', SECRET glacier_lake_iceberg)");
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const saved = { ...process.env };
    try {
      delete process.env.GLACIER_ICEBERG_CLIENT_SECRET;
      process.env.GLACIER_ICEBERG_CLIENT_ID = 'glacier-client-id-1';
      await expect(attachLake(connection, oauth)).rejects.toThrow(/^lake catalog https:\/\/catalog\.example\/api\/catalog \(warehouse avalanche\): auth oauth2 needs GLACIER_ICEBERG_CLIENT_SECRET in the environment$/);
      delete process.env.GLACIER_ICEBERG_TOKEN;
      await expect(attachLake(connection, { ...oauth, auth: 'token' } as LakeSettings)).rejects.toThrow(/auth token needs GLACIER_ICEBERG_TOKEN in the environment$/);
    } finally {
      process.env = saved;
      connection.closeSync();
    }
  }, 60_000);
});
