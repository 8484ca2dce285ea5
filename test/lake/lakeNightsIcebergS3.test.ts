import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IcebergSettings } from '../../activities/lake/settings.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { ensureMoto, startS3, type S3Server } from '../helpers/s3Server.ts';
import { lakeNightsSuite } from './lakeNightsSuite.ts';

// The same nights into an Iceberg REST catalog whose warehouse is an S3 bucket (moto): the catalog
// writes metadata there, DuckDB the data files (a secret from the AWS provider chain, lake.s3 for
// where), pyiceberg reads both back.
const missing = (await ensureIceberg()) ?? ensureMoto();
if (missing) {
  describe.skip('the Iceberg lake on S3', () => it('skipped', () => undefined));
  console.log(`lakeNightsIcebergS3: skipped: ${missing}`);
} else {
  let s3: S3Server | undefined;
  let catalog: IcebergCatalog | undefined;
  beforeAll(async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'glacier-test', AWS_SECRET_ACCESS_KEY: 'glacier-test', AWS_REGION: 'us-east-1' });
    s3 = await startS3();
    catalog = await startIcebergCatalog({ s3 });
  }, 120_000);
  afterAll(async () => {
    await catalog?.stop();
    await s3?.stop();
  });
  lakeNightsSuite(
    'the Iceberg lake with its warehouse on S3 (moto) read by pyiceberg',
    () => ({ format: 'iceberg', endpoint: catalog!.endpoint, warehouse: 'glacier', namespace: 'avalanche', auth: 'none', s3: { endpoint: s3!.endpoint, urlStyle: 'path', useSsl: false, region: 'us-east-1' } }),
    { read: (lake, at) => readWithPyiceberg(lake as IcebergSettings, at?.time) },
  );
  it('wrote the data and metadata files to the bucket', async () => {
    const listing = await (await fetch(`http://${s3!.endpoint}/${s3!.bucket}?list-type=2&prefix=iceberg/&max-keys=100000`)).text();
    expect([...listing.matchAll(/<Key>[^<]*\.parquet<\/Key>/g)].length).toBeGreaterThan(20);
    expect([...listing.matchAll(/<Key>[^<]*\.metadata\.json<\/Key>/g)].length).toBeGreaterThan(20);
  });
}
