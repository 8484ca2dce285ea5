import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configForWorld } from '../../cli/demoConfig.ts';
import { allTables } from '../../activities/streams/catalog.ts';
import { EXPORT_MEMORY_LIMIT, exportLake } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { differing, lakeDifferences, readLakeElsewhere } from '../helpers/lakeCompare.ts';
import { runWaves, startHarness, type Harness, type HarnessOptions } from '../warehouse/harness.ts';

/**
 * The lake after a backfill and several synced nights, read by another process (a fresh DuckDB
 * attaching the catalog, `SELECT *` of each table): every lake table equals its warehouse table row
 * for row, spends of old UTXOs, rewards of old staking transactions and closed snapshot versions
 * included, with no join written by the reader. Time travel: the lake as of the first night equals
 * the warehouse as it was then. Run for the default lake (lakeNights.test.ts) and a lake whose data
 * path is an S3 bucket (lakeNightsS3.test.ts), and for an Iceberg catalog read by pyiceberg
 * (lakeNightsIceberg.test.ts: time travel by time, as Iceberg has no snapshot across tables).
 */
export interface LakeNightsOptions {
  /** Another process's read of the lake (default: DuckDB attaching it, lakeReader.ts), as of a DuckLake snapshot or an epoch-ms time. */
  read?: (lake: LakeSettings, at?: { snapshot?: number; time?: number }) => Promise<{ file: string; close: () => void }>;
  harness?: Partial<HarnessOptions>;
}

export function lakeNightsSuite(name: string, lakeFor: (h: Harness) => LakeSettings | Promise<LakeSettings>, suite: LakeNightsOptions = {}): void {
  let h: Harness;
  let lake: LakeSettings;

  beforeAll(async () => {
    h = await startHarness({
      sim: { size: 'tiny' },
      config: (sim) => {
        const { api: _api, dataDir: _dir, ...rest } = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: '.' });
        return rest as unknown as Record<string, unknown>;
      },
      ...suite.harness,
    });
    lake = await lakeFor(h);
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  async function expectLakeEqualsWarehouse(options: { at?: { snapshot?: number; time?: number }; warehouseFile?: string } = {}) {
    const copy = await (suite.read ?? ((l, at) => readLakeElsewhere(l, at?.snapshot)))(lake, options.at);
    try {
      const diff = await lakeDifferences(h.warehouse, copy.file, { ...options, format: lake.format });
      expect(differing(diff)).toEqual({});
      return diff;
    } finally {
      copy.close();
    }
  }

  const oldRowUpdates = async () =>
    (
      await h.warehouse.query(
        "SELECT (SELECT count(*) FROM pn_transaction_utxos WHERE direction = 'emitted' AND consuming_tx_hash IS NOT NULL) AS spends, (SELECT count(*) FROM pn_utxos WHERE consuming_tx_hash IS NOT NULL) AS spent, (SELECT count(*) FROM pn_transactions WHERE reward_tx_hash IS NOT NULL) AS rewards, (SELECT count(*) FROM evm_erc20_balances WHERE valid_to IS NOT NULL) AS closed",
      )
    )[0];

  describe(name, () => {
    it('equals the warehouse after a backfill and after every synced night, read from another process; time travel to the first night', async () => {
      await runWaves(h, 'backfill', 'b', 1);
      const first = await exportLake(h.warehouse, allTables(), lake);
      const firstAt = Date.now();
      expect(first.fullTables).toBeGreaterThan(0);
      if (lake.format === 'ducklake') expect(first.snapshot).toBeGreaterThan(0);
      const diff = await expectLakeEqualsWarehouse();
      const empty = Object.entries(diff).filter(([, d]) => d.rows === 0).map(([t]) => t);
      expect(empty.length, `tables without rows: ${empty.join(', ')}`).toBeLessThan(8);
      // The warehouse as it was after the first night, for the time travel below (checkpointed with room).
      const release = await h.warehouse.raiseMemory(EXPORT_MEMORY_LIMIT);
      await h.warehouse.withWriter((w) => w.run('CHECKPOINT'));
      await release();
      const then = join(h.dir, 'warehouse-night1.duckdb');
      copyFileSync(h.warehouse.path, then);

      const before = await oldRowUpdates();
      for (let night = 1; night <= 3; night++) {
        h.sim.advance(60);
        await runWaves(h, 'sync', `n${night}`, 10 + night);
        const r = await exportLake(h.warehouse, allTables(), lake);
        expect(r.fullTables).toBe(0);
        expect(r.tables).toBeGreaterThan(0);
        await expectLakeEqualsWarehouse();
      }
      const after = await oldRowUpdates();
      // The nights updated rows stored before them: spends of emitted outputs and UTXOs, closed versions.
      expect(Number(after.spends)).toBeGreaterThan(Number(before.spends));
      expect(Number(after.spent)).toBeGreaterThan(Number(before.spent));
      expect(Number(after.closed)).toBeGreaterThan(Number(before.closed));

      // Time travel: the lake as of the first night's snapshot is the warehouse as it was then.
      await expectLakeEqualsWarehouse({ at: lake.format === 'ducklake' ? { snapshot: first.snapshot } : { time: firstAt }, warehouseFile: then });
    }, 900_000);
  });
}
