import { WAREHOUSE_SCHEMA_VERSION } from '../../activities/warehouse/schemaVersion.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pnBalancesTable } from '../../activities/streams/pnBalances.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import { keyUniquenessFinding } from '../../activities/verify/keyUniqueness.ts';

/**
 * Schema step 7 on a warehouse of version 6, where every finished walk stored the whole snapshot:
 * each row gets valid_to from the next finished walk of its partition (or the next row of its key),
 * identical consecutive versions become one, and a walk under way keeps the keys its stored pages
 * listed, so finishing it after the upgrade closes only what it did not list.
 */

const dir = mkdtempSync(join(tmpdir(), 'glacier-versions-migration-'));
const path = join(dir, 'w.duckdb');
let wh: Warehouse;

afterAll(async () => {
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

const PARTITION = 'pn.balances/mainnet/p-chain/set';
const PARAMS = { network: 'mainnet', blockchainId: 'p-chain', addresses: ['avax1a', 'avax1b'] };
const SET = 'avax1a,avax1b';

describe('schema step 7: snapshot tables become versions', () => {
  it('sets valid_to from the next finished walk, merges identical versions, and keeps a walk under way exact', async () => {
    wh = await openWarehouse(path);
    // Version 6's rows: a full snapshot per walk. Walks at 100, 200 and 300 finished; one at 400 is under way.
    const snapshots: [number, string, number][][] = [
      [
        [100, 'unlockedUnstaked', 5],
        [100, 'unlockedStaked', 7],
      ],
      [
        [200, 'unlockedUnstaked', 5],
        [200, 'unlockedStaked', 8],
      ],
      [
        [300, 'unlockedUnstaked', 5],
        [300, 'lockedStaked', 1],
      ],
      [[400, 'unlockedUnstaked', 5]],
    ];
    await wh.withWriter(async (c) => {
      for (const rows of snapshots) {
        for (const [at, kind, amount] of rows) {
          await c.run('INSERT INTO pn_balances (network, blockchain_id, address_set, snapshot_at, kind, item_index, amount) VALUES ($1, $2, $3, $4, $5, 0, $6)', ['mainnet', 'p-chain', SET, at, kind, amount]);
        }
      }
      for (const at of [100, 200, 300]) {
        await c.run("INSERT INTO _glacier_snapshot_walks VALUES ('pn.balances', $1, $2, $3, 'r', 2, 1, now())", [PARTITION, at, JSON.stringify(PARAMS)]);
      }
      await c.run("INSERT INTO _glacier_checkpoints (partition_id, stream, page_token, cursor, rows, pages, complete, updated_at) VALUES ($1, 'pn.balances', 't', $2, 7, 4, false, now())", [
        PARTITION,
        JSON.stringify({ runId: 'r400', snapshotAt: 400 }),
      ]);
    });
    // What a version 6 file looks like: no valid_to, the schema files of then.
    await wh.withWriter(async (c) => {
      await c.run('ALTER TABLE pn_balances DROP COLUMN valid_to');
      await c.run("UPDATE _glacier_meta SET value = '6' WHERE key = 'schema_version'");
      await c.run("DELETE FROM _glacier_schema_files WHERE file IN ('010_tables.sql', '020_views.sql', '060_walk_keys.sql')");
      await c.run('DROP TABLE _glacier_walk_keys');
    });
    await wh.close();

    wh = await openWarehouse(path);
    expect(await wh.schemaVersion()).toBe(WAREHOUSE_SCHEMA_VERSION);
    const versions = await wh.query('SELECT kind, amount::INTEGER AS amount, snapshot_at::INTEGER AS from_, valid_to::INTEGER AS to_ FROM pn_balances ORDER BY kind, snapshot_at');
    expect(versions.map((v) => [v.kind, v.amount, v.from_, v.to_])).toEqual([
      ['lockedStaked', 1, 300, null],
      ['unlockedStaked', 7, 100, 200],
      ['unlockedStaked', 8, 200, 300],
      // Four rows of the same value, the last from the walk under way: one version, current.
      ['unlockedUnstaked', 5, 100, null],
    ]);
    // The walk under way listed unlockedUnstaked (stored at 400 before the upgrade): its key is kept.
    expect((await wh.query('SELECT stream, partition_id, snapshot_at::INTEGER AS s, table_name FROM _glacier_walk_keys')).map((r) => [r.stream, r.partition_id, r.s, r.table_name])).toEqual([['pn.balances', PARTITION, 400, 'pn_balances']]);
    // As of each finished walk, the table reads what that walk stored.
    const asOf = async (x: number) =>
      (await wh.query(`SELECT kind, amount::INTEGER AS amount FROM pn_balances WHERE snapshot_at <= ${x} AND (valid_to IS NULL OR valid_to > ${x}) ORDER BY kind`)).map((r) => `${r.kind}=${r.amount}`);
    expect(await asOf(100)).toEqual(['unlockedStaked=7', 'unlockedUnstaked=5']);
    expect(await asOf(200)).toEqual(['unlockedStaked=8', 'unlockedUnstaked=5']);
    expect(await asOf(300)).toEqual(['lockedStaked=1', 'unlockedUnstaked=5']);
    expect((await wh.query('SELECT kind FROM v_pn_balances_latest ORDER BY kind')).map((r) => r.kind)).toEqual(['lockedStaked', 'unlockedUnstaked']);

    // The walk finishes on this version with a last page that lists lockedStaked only: lockedStaked
    // is unchanged (nothing written), unlockedUnstaked was listed before the upgrade (kept open).
    const last = rowsToColumns(pnBalancesTable, [{ network: 'mainnet', blockchain_id: 'p-chain', address_set: SET, snapshot_at: 400n, kind: 'lockedStaked', item_index: 0, amount: 1n }]);
    await wh.commitBatch(
      [last],
      { partitionId: PARTITION, stream: 'pn.balances', pageToken: null, cursor: { runId: 'r400', snapshotAt: 400 }, rows: 8, pages: 5, complete: true },
      undefined,
      { snapshotAt: 400, runId: 'r400', params: PARAMS, rows: 2, pages: 5 },
    );
    expect(await asOf(400)).toEqual(['lockedStaked=1', 'unlockedUnstaked=5']);
    expect(Number((await wh.query('SELECT count(*) AS n FROM pn_balances'))[0].n)).toBe(4);
    expect(Number((await wh.query('SELECT count(*) AS n FROM _glacier_walk_keys'))[0].n)).toBe(0);

    // verify: one current version per key; a second one is reported.
    expect(await keyUniquenessFinding(wh, [pnBalancesTable])).toMatchObject({ ok: true });
    await wh.withWriter((c) => c.run("INSERT INTO pn_balances (network, blockchain_id, address_set, snapshot_at, kind, item_index, amount) VALUES ('mainnet', 'p-chain', $1, 500, 'lockedStaked', 0, 2)", [SET]));
    expect(await keyUniquenessFinding(wh, [pnBalancesTable])).toMatchObject({ ok: false, detail: 'repeated keys in pn_balances (1 current versions)' });
  });
});
