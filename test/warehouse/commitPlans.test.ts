import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import { ident } from '../../activities/warehouse/identifier.ts';
import { tableMergeStatements } from '../../activities/warehouse/mergeSql.ts';
import { stagingSqlType } from '../../activities/warehouse/stagingTypes.ts';
import type { TableDef } from '../../activities/warehouse/tableDef.ts';
import { closeUnseenSql, versionSql } from '../../activities/warehouse/versions.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/warehouse.ts';
import { wholeTableBuilds } from '../helpers/joinBuilds.ts';
import { synthetic } from '../helpers/syntheticValues.ts';

/*
 * A commit's memory is bounded by its batch, not by the history: no statement a commit runs builds
 * a hash table (or another materialized join side) over a whole stored table. DuckDB can spill a
 * join's build side, but not every operator around it, and a build over pn_transactions at 10x the
 * demo's history ran a 64 MB limit out of memory on every P-chain commit (issue 38). Each table's
 * statements are planned against a history far larger than the batch (every table HISTORY rows, a
 * stage of BATCH rows, half of them stored keys), as the commit runs them, in order, in a
 * transaction that is rolled back.
 */

const HISTORY = 40_000;
const BATCH = 100;

/** One statement per entry (the follow-up files hold several, each after its comment lines). */
const split = (sql: string): string[] =>
  sql
    .split(/;\s*\n(?=(?:\s*--[^\n]*\n)*\s*(?:INSERT|UPDATE|DELETE|CREATE|DROP|WITH|SELECT)\b)/)
    .map((s) => s.trim())
    .filter((s) => s.replace(/^\s*--.*$/gm, '').trim().length > 0);

/**
 * Stored tables whose size follows the partitions, not the rows: the lake marks hold one row per
 * (table, partition day) until the next export.
 */
const BOUNDED = new Set(['_glacier_changed_partitions']);

let dir: string;
let warehouse: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-plans-'));
  warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
  await warehouse.withWriter(async (connection) => {
    for (const table of allTables()) {
      const values = table.columns.map((c) => synthetic(c.type)).join(', ');
      await connection.run(`INSERT INTO ${ident(table.name)} SELECT ${values} FROM range(${HISTORY}) AS r(i)`);
    }
  });
}, 300_000);

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The statements a commit runs for a batch of `def` staged in `stage` (versioned tables: every statement mergeVersions may run). */
function commitStatements(def: TableDef, stage: string): string[] {
  if (def.merge !== 'versions') return tableMergeStatements(def, stage, { constrained: false }).flatMap(split);
  const v = versionSql(def, stage);
  // closeUnseen's walk parameters are bound; a NULL list plans the same joins.
  const unseen = closeUnseenSql(def, stage).replace(/\$[1-4]::/g, 'NULL::');
  return [v.plan, v.mark, v.close, v.rewrite, v.insert, unseen];
}

test('no statement of a commit builds a join over a whole stored table', async () => {
  const found: string[] = [];
  await warehouse.withWriter(async (connection) => {
    for (const table of allTables()) {
      const stage = `_stage_${table.name}`;
      await connection.run('BEGIN TRANSACTION');
      try {
        await connection.run(`CREATE OR REPLACE TEMP TABLE ${ident(stage)} (${table.columns.map((c) => `${ident(c.name)} ${stagingSqlType(c.type)}`).join(', ')})`);
        const values = table.columns.map((c) => synthetic(c.type)).join(', ');
        await connection.run(`INSERT INTO ${ident(stage)} SELECT * FROM ${ident(table.name)} LIMIT ${BATCH / 2}`);
        await connection.run(`INSERT INTO ${ident(stage)} SELECT ${values} FROM range(${HISTORY}, ${HISTORY + BATCH / 2}) AS r(i)`);
        for (const statement of commitStatements(table, stage)) {
          const builds = (await wholeTableBuilds(connection, statement)).filter((t) => !BOUNDED.has(t.split('.').pop()!.replaceAll('"', '')));
          if (builds.length) found.push(`${table.name}: builds over ${builds.join(', ')} in: ${statement.replace(/^\s*--.*$/gm, '').replace(/\s+/g, ' ').trim().slice(0, 160)}`);
          await connection.run(statement);
        }
      } finally {
        await connection.run('ROLLBACK');
      }
    }
  });
  expect(found).toEqual([]);
}, 600_000);
