import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, STREAMS, tableByName } from '../../activities/streams/catalog.ts';
import { STREAM_NAMES } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import { catalogDdl } from '../../activities/streams/catalogDdl.ts';

/** The committed DDL, the catalog, the Arrow schemas and the live DuckDB schema agree; views and examples run. */

let dir: string;
let wh: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-schema-'));
  wh = await openWarehouse(join(dir, 'w.duckdb'));
});

afterAll(async () => {
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('warehouse schema', () => {
  it('sql/schema/010_tables.sql is the rendering of the stream catalog', () => {
    expect(readFileSync(new URL('../../sql/schema/010_tables.sql', import.meta.url), 'utf8')).toBe(catalogDdl());
  });

  it('every stream is in the catalog under its own name, with tables and a primary key', () => {
    expect(STREAM_NAMES).toEqual(Object.values(STREAMS).map((s) => s.name));
    for (const s of Object.values(STREAMS)) {
      expect(s.tables.length, s.name).toBeGreaterThan(0);
      for (const t of s.tables) expect(t.primaryKey.every((k) => t.columns.some((c) => c.name === k)), t.name).toBe(true);
    }
  });

  it('the DuckDB tables have exactly the catalog columns and types, NOT NULL keys and no index; the Arrow schema matches', async () => {
    for (const def of allTables()) {
      const cols = await wh.query('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [def.name]);
      expect(cols.map((c) => c.column_name), def.name).toEqual(def.columns.map((c) => c.name));
      expect(cols.map((c) => c.data_type), def.name).toEqual(def.columns.map((c) => c.type.replace('DECIMAL(38,0)', 'DECIMAL(38,0)')));
      // Keys are kept by the merge, without an ART index (memory flat in the table size); key columns are NOT NULL.
      expect(await wh.query("SELECT 1 FROM duckdb_constraints() WHERE table_name = $1 AND constraint_type = 'PRIMARY KEY'", [def.name]), def.name).toEqual([]);
      const notNull = await wh.query("SELECT constraint_column_names[1] AS col FROM duckdb_constraints() WHERE table_name = $1 AND constraint_type = 'NOT NULL' ORDER BY constraint_index", [def.name]);
      expect(notNull.map((r) => r.col).sort(), def.name).toEqual([...def.primaryKey].sort());
      const [{ comment }] = await wh.query('SELECT comment FROM duckdb_tables() WHERE table_name = $1', [def.name]);
      expect(comment, def.name).toBe(def.comment);
    }
  });

  it('reopening applies nothing twice and keeps data', async () => {
    const def = tableByName('pn_vertices')!;
    await wh.commitBatch([rowsToColumns(def, [{ network: 'fuji', blockchain_id: 'x-chain', vertex_hash: 'v', parent_hashes: ['p'] }])], {
      partitionId: 'p',
      stream: 'pn.vertices',
      pageToken: null,
      cursor: {},
      rows: 1,
      pages: 1,
      complete: true,
    });
    await wh.close();
    wh = await openWarehouse(join(dir, 'w.duckdb'));
    const [{ n }] = await wh.query('SELECT count(*) AS n FROM pn_vertices');
    expect(Number(n)).toBe(1);
    const files = await wh.query('SELECT file FROM _glacier_schema_files ORDER BY file');
    expect(files.map((f) => f.file)).toEqual(readdirSync(new URL('../../sql/schema/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort());
  });

  it('a warehouse of the schema before the primary-network variants migrates at open and keeps its rows', async () => {
    // The earlier tables: no genesis_data_text, a BIGINT L1 weight (today's DDL with those undone).
    const ddl = readFileSync(new URL('../../sql/schema/010_tables.sql', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !line.includes('genesis_data_text') && !/^(ALTER|UPDATE)\b/.test(line))
      .join('\n')
      .replace(/("weight"\s+)UBIGINT/, '$1BIGINT');
    expect(ddl).toMatch(/"weight"\s+BIGINT/);
    const file = join(dir, 'old.duckdb');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(ddl);
    await c.run("INSERT INTO pn_l1_validator_details (network, blockchain_id, tx_hash, item_index, weight) VALUES ('mainnet', 'p-chain', 't', 0, 5)");
    c.closeSync();
    db.closeSync();
    const old = await openWarehouse(file);
    try {
      const types = await old.query("SELECT table_name, column_name, data_type FROM information_schema.columns WHERE (table_name, column_name) IN (('pn_transactions', 'genesis_data_text'), ('pn_l1_validator_details', 'weight')) ORDER BY 1");
      expect(types.map((t) => [t.table_name, t.column_name, t.data_type])).toEqual([
        ['pn_l1_validator_details', 'weight', 'UBIGINT'],
        ['pn_transactions', 'genesis_data_text', 'VARCHAR'],
      ]);
      expect(await old.query('SELECT weight FROM pn_l1_validator_details')).toEqual([{ weight: 5n }]);
    } finally {
      await old.close();
    }
  });

  it('views and example queries run', async () => {
    const views = await wh.query("SELECT view_name FROM duckdb_views() WHERE NOT internal AND view_name LIKE 'v_%'");
    expect(views.length).toBeGreaterThanOrEqual(8);
    for (const v of views) await wh.query(`SELECT * FROM "${String(v.view_name)}" LIMIT 1`);
    const examples = readdirSync(new URL('../../sql/examples/', import.meta.url)).filter((f) => f.endsWith('.sql'));
    expect(examples.length).toBeGreaterThan(0);
    for (const f of examples) await wh.query(readFileSync(new URL(`../../sql/examples/${f}`, import.meta.url), 'utf8'));
  });

  it('SCD2: a validation status change closes the old version and opens a new one; retries add nothing', async () => {
    const validators = tableByName('pn_validators')!;
    const history = tableByName('pn_validator_status_history')!;
    const snap = async (at: number, status: string) => {
      const v = { network: 'fuji', node_id: 'NodeID-1', tx_hash: 't', validation_status: status, last_seen_at: BigInt(at) };
      const hrow = { network: 'fuji', node_id: 'NodeID-1', tx_hash: 't', valid_from: BigInt(at), valid_to: null, validation_status: status };
      await wh.commitBatch(
        [
          rowsToColumns(validators, [v]),
          rowsToColumns(history, [hrow]),
        ],
        { partitionId: 'v', stream: 'pn.validators', pageToken: null, cursor: {}, rows: 2, pages: 1, complete: true },
      );
    };
    await snap(100, 'pending');
    await snap(200, 'active');
    await snap(200, 'active');
    await snap(300, 'active');
    await snap(400, 'completed');
    const rows = await wh.query('SELECT valid_from, valid_to, validation_status FROM pn_validator_status_history ORDER BY valid_from');
    expect(rows.map((r) => [Number(r.valid_from), r.valid_to === null ? null : Number(r.valid_to), r.validation_status])).toEqual([
      [100, 200, 'pending'],
      [200, 400, 'active'],
      [400, null, 'completed'],
    ]);
    const [{ s }] = await wh.query('SELECT validation_status AS s FROM pn_validators');
    expect(s).toBe('completed');
  });
});
