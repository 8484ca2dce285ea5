import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { exportParquet } from '../../activities/warehouse/export.ts';
import { openWarehouse, rowsToColumns } from '../../activities/warehouse/index.ts';

/**
 * The export records what it wrote in one transaction. Recorded one statement per partition, DuckDB
 * held a buffer block per INSERT OR REPLACE until COMMIT (about 135 KB each): a first export of a long
 * history (1,700 partitions of a 100-day world) ran out of its 256MB. Here: 400 daily partitions
 * under a 24MB export limit (400 x 135 KB is over 50 MB).
 */

const DAYS = 400;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-export-bookkeeping-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export bookkeeping', () => {
  it('records hundreds of written partitions within a small buffer limit, and clears their marks', async () => {
    const wh = await openWarehouse(join(dir, 'warehouse.duckdb'), { memoryLimit: '16MB' });
    try {
      const blocks = tableByName('evm_blocks')!;
      const rows = Array.from({ length: DAYS }, (_, d) => ({ chain_id: '43114', block_number: BigInt(d + 1), block_hash: `0x${d}`, block_timestamp: BigInt(1_700_000_000 + d * 86_400), tx_count: 0 }));
      await wh.commitBatch([rowsToColumns(blocks, rows)], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: DAYS, pages: 1, complete: true });

      const first = await exportParquet(wh, allTables(), join(dir, 'lake'), { tables: ['evm_blocks'], memoryLimit: '24MB' });
      // Lake layout 2: a file per day of the newest month, one per earlier month; records stay per day.
      const days = rows.map((r) => new Date(Number(r.block_timestamp) * 1000).toISOString().slice(0, 10));
      const newest = days.at(-1)!.slice(0, 7);
      const files = new Set(days.map((d) => (d.startsWith(newest) ? d : d.slice(0, 7)))).size;
      expect(first.files).toBe(files);
      const [recorded] = await wh.query("SELECT count(*) AS n, sum(rows) AS r FROM _glacier_exports WHERE table_name = 'evm_blocks'");
      expect(Number(recorded.n)).toBe(DAYS);
      expect(Number(recorded.r)).toBe(DAYS);
      const [marks] = await wh.query("SELECT count(*) FILTER (WHERE exported_seq IS DISTINCT FROM seq) AS open, count(*) AS n FROM _glacier_changed_partitions WHERE table_name = 'evm_blocks'");
      expect(Number(marks.n)).toBe(DAYS);
      expect(Number(marks.open)).toBe(0);

      // Every partition again (its rows changed): the same one statement replaces the records.
      await wh.commitBatch([rowsToColumns(blocks, rows.map((r) => ({ ...r, tx_count: 1 })))], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: 2 * DAYS, pages: 2, complete: true });
      const again = await exportParquet(wh, allTables(), join(dir, 'lake'), { tables: ['evm_blocks'], memoryLimit: '24MB' });
      expect(again).toMatchObject({ files, unchanged: 0, fullTables: 0 });
      const [after] = await wh.query("SELECT count(*) AS n FROM _glacier_exports WHERE table_name = 'evm_blocks'");
      expect(Number(after.n)).toBe(DAYS);
    } finally {
      await wh.close();
    }
  });

  it('refuses an export memory limit that is not a size', async () => {
    const wh = await openWarehouse(':memory:');
    try {
      await expect(exportParquet(wh, allTables(), join(dir, 'lake2'), { memoryLimit: "1GB'; DROP TABLE x; --" })).rejects.toThrow(/^warehouse memory limit .*: expected a size/);
    } finally {
      await wh.close();
    }
  });
});
