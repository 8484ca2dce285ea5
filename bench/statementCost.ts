/**
 * What a statement of a few rows costs DuckDB, whatever it does: a quiet night's commits are a few
 * dozen such statements, and their fixed cost, not their rows, is most of its sync (bench/README.md,
 * "where an idle night goes"). In one DuckDB file at the worker's defaults (one thread, the sync-time
 * buffer limit), CPU ms per call (best of `--rounds` loops of `--calls` calls), each write in a
 * transaction rolled back:
 *   - a commit's records: the lake marks (`INSERT OR REPLACE` of 12 keys, the table holding 20,000 and
 *     200,000 rows), the run records (sql/ops/recordSyncRuns.sql: `ON CONFLICT DO UPDATE` of 10 rows)
 *     against their SELECT alone, a plain INSERT and `MERGE INTO`;
 *   - a table's merge (mergeSql.ts tableMergeStatements: 6 staged rows over a 12,000-row history), its
 *     statements as one text, as the commit runs them, against each prepared once.
 *
 *   npx tsx bench/statementCost.ts [--rounds 3] [--calls 40]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { listValue, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { allTables } from '../activities/streams/catalog.ts';
import { ident } from '../activities/warehouse/identifier.ts';
import { tableMergeStatements } from '../activities/warehouse/mergeSql.ts';
import { stagingSqlType } from '../activities/warehouse/stagingTypes.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import { fmt, tempDir } from './benchWorld.ts';
import { synthetic } from '../test/helpers/syntheticValues.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, calls: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);
const calls = Number(values.calls);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(calls) || calls < 1) {
  console.error('usage: npx tsx bench/statementCost.ts [--rounds N] [--calls N]');
  process.exit(2);
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU ms per call of `fn`, best of the rounds (after a few warm-up calls). */
async function perCall(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = cpuMs();
    for (let i = 0; i < calls; i++) await fn();
    best = Math.min(best, (cpuMs() - t0) / calls);
  }
  return best;
}
const rolledBack = (c: DuckDBConnection, fn: () => Promise<unknown>) => async () => {
  await c.run('BEGIN TRANSACTION');
  await fn();
  await c.run('ROLLBACK');
};
const line = (label: string, ms: number, base?: number) => console.log(`  ${label.padEnd(62)} ${fmt(ms, 2).padStart(7)} ms${base ? `  (${fmt(ms / base, 2)}x)` : ''}`);

const tmp = tempDir('statement-cost');
const warehouse = await openWarehouse(join(tmp.dir, 'warehouse.duckdb'));
try {
  await warehouse.withWriter(async (c) => {
    console.log('a commit\'s records (CPU ms per call):');
    const marks = (): DuckDBValue[] => [listValue(Array.from({ length: 12 }, (_, i) => `t${i % 4}`)), listValue(Array.from({ length: 12 }, (_, i) => `["43114","2024-01-${String(i + 1).padStart(2, '0')}"]`))];
    const markRows = `SELECT t, k, nextval('_glacier_lake_seq') AS seq FROM (SELECT DISTINCT unnest($1::VARCHAR[]) AS t, unnest($2::VARCHAR[]) AS k)`;
    const select = await perCall(() => c.run(markRows, marks()));
    line('lake marks: their SELECT alone (12 keys)', select);
    for (const stored of [20_000, 200_000]) {
      await c.run('DELETE FROM _glacier_changed_partitions');
      await c.run(`INSERT INTO _glacier_changed_partitions (table_name, partition_key, seq) SELECT 't' || (i % 40), '["43114","' || (i // 40) || '"]', i FROM range(${stored}) AS r(i)`);
      line(`lake marks: INSERT OR REPLACE, the table holding ${fmt(stored)} rows`, await perCall(rolledBack(c, () => c.run(`INSERT OR REPLACE INTO _glacier_changed_partitions (table_name, partition_key, seq) ${markRows}`, marks()))), select);
    }
    await c.run(`INSERT INTO _glacier_sync_runs (run_id, partition_id, stream, mode, snapshot_at, started_at, updated_at, pages, rows, done) SELECT 'r' || (i // 100), 'p' || (i % 100), 's', 'sync', 0, now(), now(), 1, 1, true FROM range(20000) AS r(i)`);
    const upsert = readFileSync(new URL('../sql/ops/recordSyncRuns.sql', import.meta.url), 'utf8');
    const rows = upsert.slice(upsert.indexOf('SELECT r.run_id'), upsert.indexOf('ON CONFLICT')).replace('now(), now()', 'now() AS started_at, now() AS updated_at');
    let run = 0;
    const runs = (): DuckDBValue[] => {
      const n = 10;
      const of = (v: DuckDBValue) => listValue(Array<DuckDBValue>(n).fill(v));
      run += 1;
      return [of(`night${run % 3}`), listValue(Array.from({ length: n }, (_, i) => `p${i}`)), of('s'), of('sync'), of(0n), of(1n), of(1n), of(true), of(1n), of(1n), of(0n), of(1n), of(1), of(100), of(0n), of(0n)];
    };
    const base = await perCall(() => c.run(rows, runs()));
    line('run records: their SELECT alone (10 rows, 16 lists)', base);
    line('run records: INSERT ... ON CONFLICT DO UPDATE (the product\'s)', await perCall(rolledBack(c, () => c.run(upsert, runs()))), base);
    line('run records: plain INSERT of new keys', await perCall(rolledBack(c, () => c.run(`INSERT INTO _glacier_sync_runs BY NAME ${rows.replace(/unnest\(\$1::VARCHAR\[\]\)/, "'new' || unnest($1::VARCHAR[])")}`, runs()))), base);
    const merge = `MERGE INTO _glacier_sync_runs AS t USING (${rows}) AS x ON t.run_id = x.run_id AND t.partition_id = x.partition_id
      WHEN MATCHED THEN UPDATE SET pages = t.pages + x.pages, rows = t.rows + x.rows, done = x.done WHEN NOT MATCHED THEN INSERT BY NAME`;
    line('run records: MERGE INTO', await perCall(rolledBack(c, () => c.run(merge, runs()))), base);

    console.log('a table\'s merge, 6 staged rows over a 12,000-row history (CPU ms per commit, the stage\'s fill taken out):');
    for (const table of allTables().filter((t) => ['evm_transactions', 'evm_token_transfers'].includes(t.name))) {
      await c.run(`INSERT INTO ${ident(table.name)} SELECT ${table.columns.map((col) => synthetic(col.type)).join(', ')} FROM range(12000) AS r(i)`);
      await c.run('CHECKPOINT');
      const stage = ident(`_stage_${table.name}`);
      await c.run(`CREATE OR REPLACE TEMP TABLE ${stage} (${table.columns.map((col) => `${ident(col.name)} ${stagingSqlType(col.type)}`).join(', ')})`);
      const statements = tableMergeStatements(table, `_stage_${table.name}`, { constrained: false });
      const fill = `INSERT INTO ${stage} SELECT * FROM ${ident(table.name)} LIMIT 6`;
      const filled = await perCall(rolledBack(c, async () => (await c.run(fill), await c.run(`DELETE FROM ${stage}`))));
      const text = (await perCall(rolledBack(c, async () => (await c.run(fill), await c.run(statements.join(';\n')))))) - filled;
      const prepared: DuckDBPreparedStatement[] = [];
      for (const statement of statements) prepared.push(await c.prepare(statement));
      const once = (await perCall(rolledBack(c, async () => {
        await c.run(fill);
        for (const p of prepared) await p.run();
      }))) - filled;
      line(`${table.name}: ${statements.length} statements as one text`, text);
      line(`${table.name}: each prepared once`, once, text);
    }
  });
} finally {
  await warehouse.close();
  tmp.remove();
}
