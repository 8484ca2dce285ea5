import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';
import { filesUnder } from '../helpers/files.ts';
import { secretsIn, secretsInFiles } from '../helpers/secretLeaks.ts';

// The Iceberg lake as the pipeline workflow exports it on the real dev server: the API key and the
// catalog's OAuth2 client credentials, from the environment only, must appear in no workflow
// history, no log line, no warehouse file and no file of the catalog (metadata, data, its database).
const missing = await ensureIceberg();
if (missing) {
  describe.skip('the Iceberg lake through Temporal', () => it('skipped', () => undefined));
  console.log(`lakeIcebergPipeline: skipped: ${missing}`);
} else {
  const secrets = { GLACIER_ICEBERG_CLIENT_ID: 'glacier-iceberg-client-7a40c2', GLACIER_ICEBERG_CLIENT_SECRET: 'glacier-iceberg-secret-d19f3b88' };
  const apiKey = 'glacier-api-key-b2e6a91c';
  let catalog: IcebergCatalog | undefined;
  let h: PipelineHarness | undefined;
  beforeAll(async () => {
    Object.assign(process.env, secrets);
    catalog = await startIcebergCatalog();
    h = await startPipelineHarness({
      sim: { keys: [{ key: apiKey, tier: 'pro' }] },
      edit: (c) => void (c.lake = { format: 'iceberg', endpoint: catalog!.endpoint, warehouse: 'glacier', namespace: 'avalanche', auth: 'oauth2' }),
      env: { GLACIER_API_KEY: apiKey },
    });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    await catalog?.stop();
  });

  describe('the Iceberg lake through Temporal', () => {
    it('a backfill exported by the pipeline workflow leaves the API key and the catalog credentials in no history, log, warehouse or catalog file', async () => {
      const status = await h!.run({ mode: 'backfill', exportParquet: true });
      expect(status.partitions.filter((p) => p.state !== 'done')).toEqual([]);
      expect(status.exported?.tables).toBeGreaterThan(10);
      const all = [apiKey, ...Object.values(secrets)];
      const leaks: string[] = [];
      let histories = 0;
      for await (const execution of h!.tw.client.workflow.list({ query: `TaskQueue = '${h!.tw.taskQueue}'` })) {
        leaks.push(...secretsIn(JSON.stringify(await h!.tw.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory()), `history of ${execution.workflowId}`, all));
        histories++;
      }
      expect(histories).toBeGreaterThan(1);
      expect(h!.logs()).toMatch(/"level":\d+/);
      leaks.push(...secretsIn(h!.logs(), 'the worker log', all));
      const searched = [...filesUnder(h!.config.dataDir), ...filesUnder(catalog!.dir)];
      expect(searched.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(10);
      leaks.push(...secretsInFiles(searched, all));
      expect(leaks).toEqual([]);
    }, 600_000);
  });
}
