import { afterAll, beforeAll, describe, it } from 'vitest';
import type { IcebergSettings } from '../../activities/lake/settings.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { lakeShardsSuite } from './lakeShardsSuite.ts';

// Two shards into one Iceberg REST catalog, the build and a night exported at the same moment (a
// commit that meets the other's gets a 409 and is replayed; one the test server accepts and drops is
// written again by the checking pass, export.ts checkIceberg), read back by pyiceberg.
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
    { read: (lake) => readWithPyiceberg(lake as IcebergSettings) },
  );
}
