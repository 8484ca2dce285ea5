import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IcebergSettings } from '../../activities/lake/settings.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { filesUnder } from '../helpers/files.ts';
import { secretsInFiles } from '../helpers/secretLeaks.ts';
import { lakeNightsSuite } from './lakeNightsSuite.ts';

// The same nights into an Iceberg REST catalog (the Apache test server, a file:// warehouse), read back
// by pyiceberg. The catalog takes OAuth2 client credentials from the environment; they and the API key
// must end up in no log, warehouse file or lake file.
const missing = await ensureIceberg();
if (missing) {
  describe.skip('the Iceberg lake', () => it('skipped', () => undefined));
  console.log(`lakeNightsIceberg: skipped: ${missing}`);
} else {
  const secrets = { GLACIER_ICEBERG_CLIENT_ID: 'glacier-iceberg-client-5c1d0e', GLACIER_ICEBERG_CLIENT_SECRET: 'glacier-iceberg-secret-9e2b7a41' };
  const apiKey = 'glacier-api-key-3f81c0d7';
  const logs = mkdtempSync(join(tmpdir(), 'glacier-iceberg-logs-'));
  let catalog: IcebergCatalog | undefined;
  let dataDir = '';
  beforeAll(async () => {
    Object.assign(process.env, secrets);
    catalog = await startIcebergCatalog();
  }, 120_000);
  afterAll(async () => {
    await catalog?.stop();
    rmSync(logs, { recursive: true, force: true });
  });
  lakeNightsSuite(
    'the Iceberg lake (REST catalog, OAuth2, local files) read by pyiceberg',
    (h) => {
      dataDir = h.dir;
      return { format: 'iceberg', endpoint: catalog!.endpoint, warehouse: 'glacier', namespace: 'avalanche', auth: 'oauth2' };
    },
    { read: (lake, at) => readWithPyiceberg(lake as IcebergSettings, at?.time), harness: { sim: { size: 'tiny', keys: [{ key: apiKey, tier: 'pro' }] }, apiKeys: [apiKey], log: pino.destination({ dest: join(logs, 'glacier.log'), sync: true }) } },
  );
  it('leaves the API key and the catalog credentials in no log, warehouse file or lake file', () => {
    const searched = [...filesUnder(logs), ...filesUnder(dataDir), ...filesUnder(join(catalog!.dir, 'warehouse')), join(catalog!.dir, 'catalog.db')];
    expect(searched.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(20);
    expect(readFileSync(join(logs, 'glacier.log'), 'utf8')).toMatch(/"level":\d+/);
    expect(secretsInFiles(searched, [apiKey, ...Object.values(secrets)])).toEqual([]);
  });
}
