import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachLake } from '../../activities/lake/lake.ts';
import { repairTableBounds } from '../../activities/lake/tableBounds.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/index.ts';
import { lakeOf } from '../../worker/paths.ts';

/**
 * A lake table whose first commit wrote one partition of NULLs in `v`, then a commit of later values:
 * after the repair a filter and a sort over the lake read every row as written, the bounds hold every
 * file's, a repair again changes nothing, and a bound wider than the files' stays as it is.
 * (test/lake/lakeNightsSuite.ts reads the product's lake sorted; this pins the repair's own rules.)
 */

let dir: string;
let wh: Warehouse;
let conn: DuckDBConnection;
let alias: string;
const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
const bounds = async () => (await read(`SELECT s.min_value AS lo, s.max_value AS hi FROM __ducklake_metadata_${alias}.ducklake_table_column_stats AS s JOIN __ducklake_metadata_${alias}.ducklake_column AS c USING (table_id, column_id) WHERE c.column_name = 'v' AND c.end_snapshot IS NULL`))[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-lake-bounds-'));
  wh = await openWarehouse(join(dir, 'warehouse.duckdb'));
  conn = await wh.connect();
  alias = await attachLake(conn, lakeOf({ dataDir: dir }), { alias: 'glacier_lake' });
  await conn.run(`CREATE TABLE ${alias}.main.t (id INTEGER, v BIGINT, p VARCHAR)`);
  await conn.run(`ALTER TABLE ${alias}.main.t SET PARTITIONED BY (p)`);
  // Partition a0 holds only NULLs of v; a1 and a2 hold values from 1754378558.
  await conn.run(`INSERT INTO ${alias}.main.t SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE 1754378558 + i END, 'a' || (i % 3) FROM range(300) AS r(i)`);
  await conn.run(`INSERT INTO ${alias}.main.t VALUES (1000, 1763004542, 'a1')`);
});

afterAll(async () => {
  conn?.closeSync();
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lake tables’ column bounds', () => {
  it('hold every file’s after the repair, so filters and sorts read the rows as written', async () => {
    await repairTableBounds(conn, alias);
    expect(await bounds()).toEqual({ lo: '1754378559', hi: '1763004542' });
    expect(await repairTableBounds(conn, alias)).toBe(0);
    // A fresh attach (another reader's view) plans with the repaired bounds.
    await conn.run(`DETACH ${alias}`);
    alias = await attachLake(conn, lakeOf({ dataDir: dir }), { alias: 'glacier_lake' });
    expect((await read(`SELECT count(*) AS n FROM ${alias}.main.t WHERE v < 1763000000`))[0].n).toBe(200n);
    const sorted = await read(`SELECT v FROM ${alias}.main.t WHERE v IS NOT NULL ORDER BY id`);
    expect(sorted.filter((r) => Number(r.v) > 1763004542)).toEqual([]);
    expect(sorted.length).toBe(201);
  });

  it('leaves a bound wider than the files’ as it is', async () => {
    await conn.run(`UPDATE __ducklake_metadata_${alias}.ducklake_table_column_stats SET min_value = '0' WHERE min_value = '1754378559'`);
    expect(await repairTableBounds(conn, alias)).toBe(0);
    expect(await bounds()).toEqual({ lo: '0', hi: '1763004542' });
  });
});
