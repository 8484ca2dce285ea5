import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configForWorld } from '../../cli/demoConfig.ts';
import { exportLake } from '../../activities/lake/export.ts';
import { attachLake } from '../../activities/lake/lake.ts';
import { type IcebergSettings } from '../../activities/lake/settings.ts';
import { allTables } from '../../activities/streams/catalog.ts';
import { ensureIceberg, readWithPyiceberg, startIcebergCatalog, type IcebergCatalog } from '../helpers/icebergServer.ts';
import { differing, lakeDifferences } from '../helpers/lakeCompare.ts';
import { runCli } from '../helpers/runCli.ts';
import { runWaves, startHarness, type Harness } from '../warehouse/harness.ts';

// Another writer commits to the Iceberg lake between an export's start and its commit: the catalog
// answers 409, the export replays the night (bounded), and the lake ends equal to the warehouse.
const missing = await ensureIceberg();
if (missing) {
  describe.skip('an Iceberg lake another writer commits to', () => it('skipped', () => undefined));
  console.log(`lakeIcebergConflict: skipped: ${missing}`);
} else {
  let h: Harness;
  let catalog: IcebergCatalog;
  let lake: IcebergSettings;
  beforeAll(async () => {
    catalog = await startIcebergCatalog();
    lake = { format: 'iceberg', endpoint: catalog.endpoint, warehouse: 'glacier', namespace: 'avalanche', auth: 'none' };
    h = await startHarness({
      sim: { size: 'tiny' },
      config: (sim) => {
        const { api: _api, dataDir: _dir, ...rest } = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: '.' });
        return rest as unknown as Record<string, unknown>;
      },
    });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    await catalog?.stop();
  });

  /** Commits of another writer (its own DuckDB instance attaching the catalog), one per statement. */
  async function outside(...statements: string[]): Promise<void> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await attachLake(connection, lake);
      for (const sql of statements) await connection.run(sql);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
  const outsider = "INSERT INTO lake.avalanche.evm_blocks (chain_id, block_number, month) VALUES ('outsider', 1, '1999-01')";

  async function expectLakeEqualsWarehouse() {
    const copy = await readWithPyiceberg(lake);
    try {
      expect(differing(await lakeDifferences(h.warehouse, copy.file, { format: 'iceberg' }))).toEqual({});
    } finally {
      copy.close();
    }
  }

  describe('an Iceberg lake another writer commits to', () => {
    it('replays the night when another commit came between its start and its commit; the lake ends equal to the warehouse', async () => {
      await runWaves(h, 'backfill', 'b', 1);
      let commits = 0;
      const r = await exportLake(h.warehouse, allTables(), lake, { hook: async (step) => void (step === 'before-commit' && commits++ === 0 && (await outside(outsider))) });
      expect(r.attempts).toBe(2);
      expect(r.fullTables).toBeGreaterThan(0);
      await expectLakeEqualsWarehouse();
      // Partitioned by chain and month, as the tables say.
      const data = join(catalog.dir, 'warehouse', 'avalanche', 'evm_blocks', 'data');
      expect(readdirSync(data).some((d) => d.startsWith('chain_id='))).toBe(true);
      expect(readdirSync(join(data, readdirSync(data).find((d) => d.startsWith('chain_id='))!)).every((d) => /^month=\d{4}-\d{2}$/.test(d))).toBe(true);
    }, 600_000);

    it('stops after its attempts in one line when every commit meets another, and the next export brings the night', async () => {
      h.sim.advance(60);
      await runWaves(h, 'sync', 'n1', 11);
      // Each attempt meets two commits that leave the lake as it was (a row in, the row out).
      const hook = async (step: string) => void (step === 'before-commit' && (await outside(outsider, "DELETE FROM lake.avalanche.evm_blocks WHERE chain_id = 'outsider'")));
      const error = await exportLake(h.warehouse, allTables(), lake, { hook }).then(() => undefined, (e: unknown) => e as Error);
      expect(error?.message).toMatch(new RegExp(`^lake catalog ${lake.endpoint} \\(warehouse glacier\\): .*(409|Conflict)`));
      expect(error?.message).not.toContain('\n');
      const r = await exportLake(h.warehouse, allTables(), lake);
      expect(r.attempts).toBe(1);
      expect(r.tables).toBeGreaterThan(0);
      await expectLakeEqualsWarehouse();
    }, 600_000);

    it('is what `glacier-etl sql` reads, attaching the catalog as it does a DuckLake', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'glacier-iceberg-sql-'));
      try {
        const config = join(dir, 'glacier-etl.yaml');
        writeFileSync(config, `dataDir: ./data\nlake:\n  format: iceberg\n  endpoint: ${lake.endpoint}\n  warehouse: glacier\n  namespace: avalanche\n`);
        const r = await runCli(['--config', config, 'sql', '--json', 'SELECT count(*) AS n FROM evm_blocks'], { timeoutMs: 120_000 });
        expect(r.code, r.stderr).toBe(0);
        const [{ n }] = (await h.warehouse.query('SELECT count(*) AS n FROM evm_blocks')) as { n: bigint }[];
        expect(JSON.parse(r.stdout)).toEqual([{ n: String(n) }]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
  });
}
