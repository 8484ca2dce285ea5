import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachLake } from '../../activities/lake/lake.ts';
import { clearTableBounds } from '../../activities/lake/tableBounds.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/index.ts';
import { lakeOf } from '../../worker/paths.ts';

/**
 * A lake table whose first commit wrote one partition of NULLs in each column but the key, then a
 * commit of later values (what leaves DuckLake 1.5.5's table bounds narrow): once the bounds are
 * cleared, a fresh reader's filters and sorts read every row as written, in BIGINT, TIMESTAMP and
 * BOOLEAN columns (BIGINT and TIMESTAMP read wrong without it), and again after a further commit.
 * (test/lake/lakeNightsSuite.ts reads the product's lake sorted; this pins the rule for each type.)
 */

let dir: string;
let wh: Warehouse;
let conn: DuckDBConnection;
let alias: string;
const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
const count = async (where: string) => Number((await read(`SELECT count(*) AS n FROM ${alias}.main.t WHERE ${where}`))[0].n);

/** What a reader that attaches now plans with. */
async function reattach(): Promise<void> {
  await conn.run(`DETACH ${alias}`);
  alias = await attachLake(conn, lakeOf({ dataDir: dir }), { alias: 'glacier_lake' });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-lake-bounds-'));
  wh = await openWarehouse(join(dir, 'warehouse.duckdb'));
  conn = await wh.connect();
  alias = await attachLake(conn, lakeOf({ dataDir: dir }), { alias: 'glacier_lake' });
  await conn.run(`CREATE TABLE ${alias}.main.t (id INTEGER, v BIGINT, ts TIMESTAMP, ok BOOLEAN, p VARCHAR)`);
  await conn.run(`ALTER TABLE ${alias}.main.t SET PARTITIONED BY (p)`);
  // Partition a0 holds only NULLs; a1 and a2 hold values from 1754378558, 2025-01-01 and false.
  await conn.run(`INSERT INTO ${alias}.main.t SELECT i, CASE WHEN i % 3 > 0 THEN 1754378558 + i END, CASE WHEN i % 3 > 0 THEN TIMESTAMP '2025-01-01' + INTERVAL (i) DAY END, CASE WHEN i % 3 > 0 THEN false END, 'a' || (i % 3) FROM range(300) AS r(i)`);
  await conn.run(`INSERT INTO ${alias}.main.t VALUES (1000, 1763004542, TIMESTAMP '2026-01-01', true, 'a1')`);
});

afterAll(async () => {
  conn?.closeSync();
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lake tables’ column bounds', () => {
  it('once cleared, filters and sorts read every row as written', async () => {
    expect(await clearTableBounds(conn, alias)).toBeGreaterThan(0);
    expect(await clearTableBounds(conn, alias)).toBe(0);
    await reattach();
    expect(await count('v < 1763000000')).toBe(200);
    expect(await count(`ts < TIMESTAMP '2025-06-01'`)).toBe(100);
    expect(await count('NOT ok')).toBe(200);
    const sorted = await read(`SELECT v FROM ${alias}.main.t WHERE v IS NOT NULL ORDER BY id`);
    expect(sorted.filter((r) => Number(r.v) > 1763004542)).toEqual([]);
    expect(sorted.length).toBe(201);
  });

  it('and again after a further commit, which DuckLake 1.5.5 gives its own values alone', async () => {
    await conn.run(`INSERT INTO ${alias}.main.t VALUES (1001, 1763004600, TIMESTAMP '2026-02-01', true, 'a2')`);
    await clearTableBounds(conn, alias);
    await reattach();
    expect(await count('v < 1763000000')).toBe(200);
    expect(await count(`ts < TIMESTAMP '2025-06-01'`)).toBe(100);
    expect(await count('NOT ok')).toBe(200);
  });
});
