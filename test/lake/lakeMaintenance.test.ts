import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { exportLake } from '../../activities/lake/export.ts';
import { MERGE_AT } from '../../activities/lake/maintenance.ts';
import { openWarehouse, rowsToColumns } from '../../activities/warehouse/index.ts';
import { lakeOf } from '../../worker/paths.ts';
import { liveLakeFiles } from '../helpers/lakeCompare.ts';

/**
 * The upkeep merges a partition's small files only once it holds MERGE_AT of them (a night writes one
 * file per partition it changes): nights before that leave every file as written, the night after
 * finds them merged, and the lake still holds every row.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-lake-maintenance-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lake maintenance', () => {
  it(`merges a partition's small files when it holds ${MERGE_AT}, not before`, async () => {
    const wh = await openWarehouse(join(dir, 'warehouse.duckdb'));
    const lake = lakeOf({ dataDir: dir });
    const blocks = tableByName('evm_blocks')!;
    const night = async (n: number) => {
      // One block a night, all in one day of one month: one partition, one new file a night.
      const row = { chain_id: '43114', block_number: BigInt(n), block_hash: `0x${n}`, block_timestamp: BigInt(1_700_000_000 + n), tx_count: 0 };
      await wh.commitBatch([rowsToColumns(blocks, [row])], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: n, pages: n, complete: true });
      return exportLake(wh, allTables(), lake, { tables: ['evm_blocks'], maintenance: { graceHours: 0 } });
    };
    try {
      for (let n = 1; n <= MERGE_AT; n++) {
        expect(await night(n)).toMatchObject({ inserted: 1, merged: false });
        expect((await liveLakeFiles(lake)).files).toBe(n);
      }
      // The next night's upkeep finds MERGE_AT small files in the partition: one file, then the night's.
      expect(await night(MERGE_AT + 1)).toMatchObject({ inserted: 1, merged: true });
      expect((await liveLakeFiles(lake)).files).toBe(2);
      expect(await night(MERGE_AT + 2)).toMatchObject({ inserted: 1, merged: false });
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const { attachLake } = await import('../../activities/lake/lake.ts');
      const instance = await DuckDBInstance.create(':memory:');
      const conn = await instance.connect();
      try {
        await attachLake(conn, lake, { readOnly: true });
        const [row] = (await conn.runAndReadAll('SELECT count(*) AS n, count(DISTINCT block_number) AS d FROM lake.evm_blocks')).getRowObjectsJS();
        expect({ n: Number(row.n), d: Number(row.d) }).toEqual({ n: MERGE_AT + 2, d: MERGE_AT + 2 });
      } finally {
        conn.closeSync();
        instance.closeSync();
      }
    } finally {
      await wh.close();
    }
  }, 120_000);
});
