import { afterAll, beforeAll, describe, it } from 'vitest';
import type { IcebergSettings } from '../../activities/lake/lake.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { lakeShardsSuite } from './lakeShardsSuite.ts';

// Two shards into one Iceberg REST catalog at the same moment (each shard's commit may meet the
// other's: a 409, replayed), read back by pyiceberg.
const missing = await ensureIceberg();
if (missing) {
  describe.skip('shards export into one Iceberg lake', () => it('skipped', () => undefined));
  console.log(`lakeShardsIceberg: skipped: ${missing}`);
} else {
  let catalog: IcebergCatalog | undefined;
  beforeAll(async () => {
    catalog = await startIcebergCatalog();
  }, 120_000);
  afterAll(async () => {
    await catalog?.stop();
  });
  lakeShardsSuite(
    'shards export into one Iceberg lake',
    () => ({ format: 'iceberg', endpoint: catalog!.endpoint, warehouse: 'glacier', namespace: 'avalanche', auth: 'none' }),
    (lake) => readWithPyiceberg(lake as IcebergSettings),
  );
}
