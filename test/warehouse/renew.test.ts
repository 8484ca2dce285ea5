import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLake } from '../../activities/lake/export.ts';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import { RENEW_AFTER_LENDS } from '../../activities/warehouse/warehouse.ts';
import { applyRetention } from '../../activities/warehouse/retention.ts';
import { lakeOf } from '../../worker/paths.ts';

/**
 * A run's end opens the warehouse's DuckDB instance again (Warehouse.settle, from applyRetention): an
 * attach of the lake leaves native memory in the instance that DETACH does not free, so a worker's
 * memory grew every night it exported (bench/README.md, "Nights: the instance opened again"). The
 * instance is replaced only when nothing else uses it, and everything committed is read back.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-renew-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const blocks = tableByName('evm_blocks')!;
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ chain_id: '43114', block_number: BigInt(from + i), block_hash: `0x${from + i}`, block_timestamp: BigInt(1_700_000_000 + (from + i) * 3_600), tx_count: 0 }));
const commit = (wh: Warehouse, from: number, n: number) =>
  wh.commitBatch([rowsToColumns(blocks, rows(from, n))], { partitionId: 'evm.blocks/43114', stream: 'evm.blocks', pageToken: String(from + n), cursor: {}, rows: from + n, pages: 1, complete: false });
const count = async (wh: Warehouse) => Number((await wh.query('SELECT count(*) AS n FROM evm_blocks'))[0].n);
/** Databases attached to the warehouse's instance (an ATTACH is instance-wide: a new instance has none of the old one's). */
const attached = async (wh: Warehouse) => (await wh.query("SELECT database_name FROM duckdb_databases() WHERE NOT internal AND database_name <> current_database()")).map((r) => String(r.database_name));

describe('the warehouse instance opened again (renew)', () => {
  it('waits for a lent connection, then replaces the instance with everything committed read back', async () => {
    const wh = await openWarehouse(join(dir, 'lent.duckdb'), { renewAfterLends: 1 });
    try {
      await commit(wh, 0, 100);
      const lent = await wh.connect();
      await lent.run("ATTACH ':memory:' AS probe");
      await wh.settle();
      expect(wh.renewed).toBe(0);
      expect(await attached(wh)).toEqual(['probe']);
      lent.closeSync();
      await wh.settle();
      expect(wh.renewed).toBe(1);
      expect(await attached(wh)).toEqual([]);
      expect(await count(wh)).toBe(100);
      expect((await wh.readCheckpoint('evm.blocks/43114'))?.pageToken).toBe('100');
      await commit(wh, 100, 50);
      expect(await count(wh)).toBe(150);
    } finally {
      await wh.close();
    }
  });

  it('never closes the instance under a read or a commit issued while it runs', async () => {
    const wh = await openWarehouse(join(dir, 'busy.duckdb'), { renewAfterLends: 1 });
    try {
      await commit(wh, 0, 100);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Renewals, reads and commits interleaved at every few milliseconds: each renew either waits for the
      // queue and finds no use in flight, or does nothing; a use issued while it replaces the instance waits.
      const work = Array.from({ length: 30 }, async (_, i) => {
        await pause(i * 3);
        if (i % 3 === 0) return wh.connect().then((c) => (c.closeSync(), wh.settle()));
        if (i % 3 === 1) return count(wh);
        return commit(wh, 100 + i, 1);
      });
      const results = await Promise.all(work);
      for (const [i, r] of results.entries()) if (i % 3 === 1) expect(r).toBeGreaterThanOrEqual(100);
      const renewed = wh.renewed;
      (await wh.connect()).closeSync();
      await wh.settle();
      expect(wh.renewed).toBe(renewed + 1);
      expect(await count(wh)).toBe(110);
    } finally {
      await wh.close();
    }
  });

  it('ends every run that exported, the default every 8th', async () => {
    const wh = await openWarehouse(join(dir, 'export.duckdb'), { renewAfterLends: 1 });
    const lake = lakeOf({ dataDir: join(dir, 'export') });
    try {
      await commit(wh, 0, 100);
      expect(await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'] })).toMatchObject({ inserted: 100 });
      await applyRetention(wh, { runRecordsDays: 90 });
      expect(wh.renewed).toBe(1);
      expect(await attached(wh)).toEqual([]);
      // A run with nothing to export attaches nothing: its end keeps the instance (and its warm caches).
      expect(await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'] })).toMatchObject({ inserted: 0 });
      await applyRetention(wh, { runRecordsDays: 90 });
      expect(wh.renewed).toBe(1);
      await commit(wh, 100, 10);
      expect(await exportLake(wh, allTables(), lake, { tables: ['evm_blocks'] })).toMatchObject({ inserted: 10 });
      await applyRetention(wh, { runRecordsDays: 0 });
      expect(wh.renewed).toBe(2);
      expect(await count(wh)).toBe(110);
      // At the default, the 8th connection lent renews it, not one before.
      const defaults = await openWarehouse(join(dir, 'defaults.duckdb'));
      try {
        for (let lend = 1; lend <= RENEW_AFTER_LENDS; lend++) {
          (await defaults.connect()).closeSync();
          await defaults.settle();
          expect(defaults.renewed).toBe(lend === RENEW_AFTER_LENDS ? 1 : 0);
        }
      } finally {
        await defaults.close();
      }
    } finally {
      await wh.close();
    }
  }, 60_000);
});
