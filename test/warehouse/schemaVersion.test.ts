import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { DuckDBInstance } from '@duckdb/node-api';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { configForWorld } from '../../cli/demoConfig.ts';
import { startSimulator } from '../../tools/simulator/index.ts';
import { warehousePath } from '../../worker/paths.ts';
import { runCli } from '../helpers/runCli.ts';
import { migrateWarehouse, readSchemaVersion, SCHEMA_STEPS, WAREHOUSE_SCHEMA_VERSION } from '../../activities/warehouse/schemaVersion.ts';

/**
 * The warehouse carries its schema version. The fixture is a file the first release (0.1.0) wrote
 * with its own CLI (scripts/makeWarehouseFixture.ts): it has no version, so it is version 1, and
 * opening it migrates it forward and keeps every row. A migration that fails leaves it as it was; a
 * file of a newer version is refused with one line and left byte for byte untouched.
 */
const FIXTURE = new URL('../fixtures/warehouse-0.1.0.duckdb.gz', import.meta.url);
const FIXTURE_ROWS = (JSON.parse(readFileSync(new URL('../fixtures/warehouse-0.1.0.json', import.meta.url), 'utf8')) as { rows: Record<string, number> }).rows;
const dir = mkdtempSync(join(tmpdir(), 'glacier-schema-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function fixtureCopy(): string {
  const path = join(dir, `w${++copies}.duckdb`);
  writeFileSync(path, gunzipSync(readFileSync(FIXTURE)));
  return path;
}

async function withFile<T>(path: string, fn: (c: Awaited<ReturnType<DuckDBInstance['connect']>>) => Promise<T>, readOnly = true): Promise<T> {
  const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
  const connection = await instance.connect();
  try {
    return await fn(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Tables, their columns and row counts: what "left as it was" means for a file's contents. */
async function shape(path: string): Promise<string> {
  return withFile(path, async (c) => {
    const cols = (await c.runAndReadAll("SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' ORDER BY table_name, column_index")).getRowObjectsJS();
    const tables = [...new Set(cols.map((r) => String(r.table_name)))];
    const counts: string[] = [];
    for (const t of tables) counts.push(`${t}=${(await c.runAndReadAll(`SELECT count(*) AS n FROM "${t}"`)).getRowObjectsJS()[0].n}`);
    return JSON.stringify({ cols, counts });
  });
}

/** DuckDB's storage format number: the uint64 after the "DUCK" magic in the file header. */
function storageFormat(path: string): bigint {
  const header = readFileSync(path).subarray(0, 20);
  expect(header.subarray(8, 12).toString('latin1')).toBe('DUCK');
  return header.readBigUInt64LE(12);
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('warehouse schema version', () => {
  it('the fixture was written by 0.1.0 in the storage format the current DuckDB writes', async () => {
    const fresh = join(dir, 'fresh-format.duckdb');
    await withFile(fresh, async (c) => void (await c.run('CREATE TABLE t (a INTEGER)')), false);
    expect(storageFormat(fixtureCopy())).toBe(storageFormat(fresh));
  });

  it('a warehouse written by 0.1.0 (no version) is version 1, opens, migrates to the current version and keeps every row', async () => {
    const path = fixtureCopy();
    expect(await withFile(path, (c) => readSchemaVersion(c))).toBe(1);
    const before = await shape(path);
    const warehouse = await openWarehouse(path);
    try {
      expect(await warehouse.schemaVersion()).toBe(WAREHOUSE_SCHEMA_VERSION);
      for (const [table, rows] of Object.entries(FIXTURE_ROWS)) {
        // The migration records each schema file it applies: that bookkeeping grows with the release.
        if (table === '_glacier_schema_files') continue;
        // The Parquet lake's fingerprints: gone with it (step 8).
        if (table === '_glacier_exports') continue;
        expect(Number((await warehouse.query(`SELECT count(*) AS n FROM "${table}"`))[0].n), table).toBe(rows);
      }
      expect(FIXTURE_ROWS.evm_blocks).toBeGreaterThan(0);
    } finally {
      await warehouse.close();
    }
    expect(await shape(path)).not.toBe(before);
    // Opened again: up to date, nothing runs.
    const again = await withFile(path, (c) => migrateWarehouse(c, { path }), false);
    expect(again).toEqual({ from: WAREHOUSE_SCHEMA_VERSION, to: WAREHOUSE_SCHEMA_VERSION, applied: [] });
  });

  it('version 5: the link and detail-list rows a 0.1.0 file holds get their transaction\'s block_timestamp from the parent rows', async () => {
    const path = fixtureCopy();
    const children = ['evm_internal_transactions', 'evm_tx_erc20_transfers', 'evm_tx_erc721_transfers', 'evm_tx_erc1155_transfers', 'evm_teleporter_messages'];
    // Rows as 0.1.0 wrote them (no block_timestamp column on these tables): two details, their lists, one list row whose detail is missing.
    await withFile(
      path,
      async (c) => {
        await c.run("INSERT INTO evm_transaction_details (chain_id, tx_hash, block_timestamp) VALUES ('43114', '0xa', 1700000000), ('43114', '0xb', 1700090000)");
        await c.run("INSERT INTO evm_transactions (chain_id, tx_hash, block_timestamp) VALUES ('43114', '0xa', 1700000000), ('43114', '0xb', 1700090000)");
        await c.run("INSERT INTO evm_address_transactions (chain_id, address, tx_hash, block_number) VALUES ('43114', '0x01', '0xa', 1), ('43114', '0x02', '0xb', 2), ('43114', '0x01', '0xc', 3)");
        for (const t of children) {
          const index = t === 'evm_teleporter_messages' ? [] : [t === 'evm_internal_transactions' ? 'trace_index' : 'transfer_index'];
          const values = (hash: string, i: number) => `('43114', '${hash}'${index.length ? `, ${i}` : ''})`;
          await c.run(`INSERT INTO "${t}" (chain_id, tx_hash${index.map((k) => `, ${k}`).join('')}) VALUES ${values('0xa', 0)}, ${values('0xb', 0)}, ${values('0xc', 0)}`);
        }
      },
      false,
    );
    const warehouse = await openWarehouse(path);
    try {
      const stamps = async (table: string) => Object.fromEntries((await warehouse.query(`SELECT tx_hash, block_timestamp FROM "${table}" ORDER BY tx_hash`)).map((r) => [String(r.tx_hash), r.block_timestamp === null ? null : Number(r.block_timestamp)]));
      const expected = { '0xa': 1700000000, '0xb': 1700090000, '0xc': null };
      expect(await stamps('evm_address_transactions')).toEqual(expected);
      for (const t of children) expect(await stamps(t), t).toEqual(expected);
    } finally {
      await warehouse.close();
    }
  });

  it('a new file is created at the current version', async () => {
    const path = join(dir, 'new.duckdb');
    const warehouse = await openWarehouse(path);
    expect(await warehouse.schemaVersion()).toBe(WAREHOUSE_SCHEMA_VERSION);
    await warehouse.close();
  });

  it('a migration step that fails leaves the file as it was (one transaction)', async () => {
    const path = fixtureCopy();
    const before = await shape(path);
    const failing = [
      ...SCHEMA_STEPS,
      {
        version: WAREHOUSE_SCHEMA_VERSION + 1,
        summary: 'a step that fails half-way',
        run: async (c: Awaited<ReturnType<DuckDBInstance['connect']>>) => {
          await c.run('CREATE TABLE _half_done (a INTEGER)');
          await c.run('ALTER TABLE evm_blocks ADD COLUMN half_done INTEGER');
          await c.run('DELETE FROM evm_blocks');
          throw new Error('injected failure');
        },
      },
    ];
    const error = await withFile(path, (c) => migrateWarehouse(c, { path, steps: failing, target: WAREHOUSE_SCHEMA_VERSION + 1 }).then(() => undefined, (e: Error) => e), false);
    expect(error?.message).toBe(`migrating warehouse ${path} from schema version 1 to ${WAREHOUSE_SCHEMA_VERSION + 1}: step ${WAREHOUSE_SCHEMA_VERSION + 1} (a step that fails half-way) failed, nothing changed: injected failure`);
    expect(await shape(path)).toBe(before);
    expect(await withFile(path, (c) => readSchemaVersion(c))).toBe(1);
  });

  it('a file of a newer schema version is refused with one line naming both versions, and left byte for byte untouched', async () => {
    const path = fixtureCopy();
    // The newer writer's last transaction is still in the WAL (as after a crash): a read-write open
    // would replay it into the file.
    await withFile(path, async (c) => {
      await c.run('PRAGMA disable_checkpoint_on_shutdown');
      await c.run('CREATE TABLE _glacier_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)');
      await c.run("INSERT INTO _glacier_meta VALUES ('schema_version', '99')");
    }, false);
    expect(existsSync(`${path}.wal`)).toBe(true);
    const digests = [sha(path), sha(`${path}.wal`)];
    const error = await openWarehouse(path).then(() => undefined, (e: Error) => e);
    expect(error?.message).toBe(`warehouse ${path} has schema version 99, newer than this glacier-etl reads (version ${WAREHOUSE_SCHEMA_VERSION}): upgrade glacier-etl, or use a copy of the file from before the upgrade`);
    expect(error?.message).not.toContain('\n');
    expect([sha(path), existsSync(`${path}.wal`) ? sha(`${path}.wal`) : 'no WAL']).toEqual(digests);

    // The worker command says the same in one line and exits non-zero.
    const sim = await startSimulator({ seed: 11, size: 'tiny' });
    try {
      const dataDir = join(dir, 'newer-data');
      mkdirSync(dataDir);
      renameSync(path, warehousePath(dataDir));
      renameSync(`${path}.wal`, `${warehousePath(dataDir)}.wal`);
      const config = join(dir, 'newer.yaml');
      writeFileSync(config, toYaml(configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir })));
      const run = await runCli(['-c', config, 'worker'], { env: { TEMPORAL_ADDRESS: inject('temporalAddress') } });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n').filter((l) => l.startsWith('glacier-etl:'))).toEqual([
        `glacier-etl: warehouse ${warehousePath(dataDir)} has schema version 99, newer than this glacier-etl reads (version ${WAREHOUSE_SCHEMA_VERSION}): upgrade glacier-etl, or use a copy of the file from before the upgrade`,
      ]);
      expect(sha(warehousePath(dataDir))).toBe(digests[0]);
    } finally {
      await sim.close();
    }
  });
});
