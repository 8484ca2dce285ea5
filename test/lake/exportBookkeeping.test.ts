import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { exportLake } from '../../activities/lake/export.ts';
import { openWarehouse, rowsToColumns } from '../../activities/warehouse/index.ts';
import { lakeOf } from '../../worker/paths.ts';

/**
 * The export clears the marks it applied in one statement whatever their number (one statement per
 * mark held a buffer block each until COMMIT, about 135 KB: a 100-day history's 1,700 marks ran out
 * of 256 MB). Here 400 daily partitions under a 48 MB export limit, built once, then all changed.
 */

const DAYS = 400;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-export-bookkeeping-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export bookkeeping', () => {
  it('applies and clears hundreds of marked partitions within a small buffer limit', async () => {
    const wh = await openWarehouse(join(dir, 'warehouse.duckdb'), { memoryLimit: '16MB' });
    const lake = lakeOf({ dataDir: dir });
    try {
      const blocks = tableByName('evm_blocks')!;
      const rows = Array.from({ length: DAYS }, (_, d) => ({ chain_id: '43114', block_number: BigInt(d + 1), block_hash: `0x${d}`, block_timestamp: BigInt(1_700_000_000 + d * 86_400), tx_count: 0 }));
      await wh.commitBatch([rowsToColumns(blocks, rows)], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: DAYS, pages: 1, complete: true });
      const first = await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'], memoryLimit: '48MB' });
      expect(first).toMatchObject({ tables: 1, inserted: DAYS, fullTables: 1 });
      const open = async () => Number((await wh.query("SELECT count(*) FILTER (WHERE exported_seq IS DISTINCT FROM seq) AS open FROM _glacier_changed_partitions WHERE table_name = 'evm_blocks'"))[0].open);
      expect(await open()).toBe(0);

      // Every partition again (its rows changed): every marked day compared, every row replaced.
      await wh.commitBatch([rowsToColumns(blocks, rows.map((r) => ({ ...r, tx_count: 1 })))], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: 2 * DAYS, pages: 2, complete: true });
      expect(await open()).toBe(DAYS);
      const again = await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'], memoryLimit: '48MB' });
      expect(again).toMatchObject({ tables: 1, deleted: DAYS, inserted: DAYS, fullTables: 0, unchanged: 0 });
      expect(await open()).toBe(0);
      // Nothing changed since: nothing to do, no snapshot.
      expect(await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'], memoryLimit: '48MB' })).toMatchObject({ tables: 0, deleted: 0, inserted: 0 });
    } finally {
      await wh.close();
    }
  }, 120_000);

  it('refuses an export memory limit that is not a size', async () => {
    const wh = await openWarehouse(':memory:');
    try {
      await expect(exportLake(wh, allTables(), lakeOf({ dataDir: join(dir, 'other') }), { memoryLimit: "1GB'; DROP TABLE x; --" })).rejects.toThrow(/^warehouse memory limit .*: expected a size/);
    } finally {
      await wh.close();
    }
  });
});
