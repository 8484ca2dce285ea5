import { afterAll, beforeAll, describe, it } from 'vitest';
import type { IcebergSettings } from '../../activities/lake/lake.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { lakeShardsSuite } from './lakeShardsSuite.ts';

// Two shards into one Iceberg REST catalog, a night's exports at the same moment (each shard's commit
// may meet the other's: a 409, replayed), read back by pyiceberg.
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
    // The first export one shard after the other: two shards creating the tables at the same moment
    // lost rows of the table both write (_glacier_snapshot_walks) in 3 of 4 runs, with DuckDB 1.5.5's
    // iceberg extension and the REST test server (docs/operations.md, An Iceberg lake).
    { read: (lake) => readWithPyiceberg(lake as IcebergSettings), buildOneAtATime: true },
  );
}
