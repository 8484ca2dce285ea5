import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeOf } from '../../worker/paths.ts';
import { ensureMoto, startS3, type S3Server } from '../helpers/s3Server.ts';
import { lakeNightsSuite } from './lakeNightsSuite.ts';

// The same nights with the lake's data path on object storage: an S3 server (moto) this test starts.
// Credentials come from the environment, as the AWS provider chain reads them (never the config).
const missing = ensureMoto();
if (missing) {
  describe.skip('the DuckLake lake on S3', () => it('skipped', () => undefined));
  console.log(`lakeNightsS3: skipped: ${missing}`);
} else {
  let s3: S3Server | undefined;
  beforeAll(async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'glacier-test', AWS_SECRET_ACCESS_KEY: 'glacier-test', AWS_REGION: 'us-east-1' });
    s3 = await startS3();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  let dataDir = '';
  lakeNightsSuite('the DuckLake lake with its data on S3 (moto)', (h) => {
    dataDir = h.config.dataDir;
    return { ...lakeOf(h.config), dataPath: `s3://${s3!.bucket}/lake/`, s3: { endpoint: s3!.endpoint, urlStyle: 'path', useSsl: false, region: 'us-east-1' } };
  });
  it('wrote the Parquet files to the bucket, none to the data directory', async () => {
    const listing = await (await fetch(`http://${s3!.endpoint}/${s3!.bucket}?list-type=2&prefix=lake/`)).text();
    expect([...listing.matchAll(/<Key>[^<]*\.parquet<\/Key>/g)].length).toBeGreaterThan(20);
    expect(existsSync(join(dataDir, 'lake', 'data'))).toBe(false);
  });
}
