/**
 * What the export's diff of one table costs, two ways, on a kept world (bench/README.md, "The
 * export's diff by row hash"): the marks are the partitions of the table's last day of rows and of
 * the older rows its spends touched that day (what a night's sync marks), and each statement runs in a
 * lake transaction rolled back, so the world is left as it was. CPU ms of this process (DuckDB on one
 * thread, as the worker runs it), per round:
 *   - set difference (the export before the change): the lake's rows copied to a temporary table,
 *     `EXCEPT` each way, the gone rows' keys kept;
 *   - row hash (the export now: activities/lake/export.ts lakeDiffSql, the statement applyDiff runs;
 *     the lake side reads the hash the export stored with each row, ROW_HASH):
 *     the warehouse rows hashed, both joined on key and hash in one statement;
 *   - the lake side alone, its rows' hashes computed from every column against read as stored;
 *   - a delete of the same sampled lake rows by key (with the partition filter) and by DuckLake row id.
 *
 *   npm run bench:nights -- --skip-nights --skip-idle --scaling 100 --scaling-nights 1 --checks none --keep
 *   npx tsx bench/lakeDiff.ts --dir data/bench-nights/scale-100x/data [--table pn_transaction_utxos] [--rounds 3]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { attachLake } from '../activities/lake/lake.ts';
import { lakeDiffSql, lakeTable, ROW_HASH } from '../activities/lake/export.ts';
import { allTables } from '../activities/streams/catalog.ts';
import { ident, sqlString } from '../activities/warehouse/identifier.ts';
import { lakeKeySql, partitionsFilter } from '../activities/warehouse/lakeKeys.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' }, table: { type: 'string', default: 'pn_transaction_utxos' }, rounds: { type: 'string', default: '3' } } });
const def = allTables().find((d) => d.name === values.table);
if (!values.dir || !def || def.export.dateFrom === undefined) {
  console.error('usage: npx tsx bench/lakeDiff.ts --dir <a kept bench:nights world\'s data dir> [--table <a dated table>] [--rounds 3]');
  process.exit(2);
}
const dir = resolve(values.dir);
const warehouse = await openWarehouse(`${dir}/warehouse.duckdb`, { threads: 1 });
const conn = await warehouse.connect();
const alias = await attachLake(conn, { format: 'ducklake', catalog: `sqlite:${dir}/lake/catalog.sqlite`, dataPath: `${dir}/lake/data/`, snapshotDays: 1 });
const read = async (sql: string, params: Parameters<typeof conn.run>[1] = []) => (await conn.runAndReadAll(sql, params)).getRowObjectsJS();
const t = lakeTable(def);
const table = ident(def.name);
const dateFrom = ident(def.export.dateFrom!);
const spentAt = def.columns.some((c) => c.name === 'consuming_block_timestamp') ? 'consuming_block_timestamp' : undefined;
const [{ last }] = await read(`SELECT max(${dateFrom}) AS last FROM ${table}`);
const since = Number(last) - 86_400;
const touched = `${dateFrom} >= ${since}${spentAt ? ` OR ${spentAt} >= ${since}` : ''}`;
const marks = (await read(`SELECT DISTINCT ${lakeKeySql(def)} AS k FROM ${table} WHERE ${touched}`)).map((r) => JSON.parse(String(r.k)) as (string | null)[]);
const filter = partitionsFilter(def, marks);
const months = [...new Set(marks.map((k) => k.at(-1)!.slice(0, 7)))];
const where = `${filter.where} AND month IN (${months.map(sqlString).join(', ')})`;
const lake = `${alias}.main.${table}`;
const cols = t.columns.map((c) => ident(c.name)).join(', ');
const keys = def.primaryKey.map(ident);
const dataCols = t.columns.filter((c) => c.name !== ROW_HASH).map((c) => ident(c.name)).join(', ');
const W = t.rows(filter.where);
const [{ rows }] = await read(`SELECT count(*) AS rows FROM (${W})`, filter.params);
console.log(`${def.name}: ${marks.length} marked partitions (${new Set(marks.map((k) => k.at(-1))).size} days in ${months.length} months), ${rows} warehouse rows in them`);

async function cpu(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const ways: Record<string, () => Promise<unknown>> = {
  'set difference': async () => {
    await conn.run(`CREATE OR REPLACE TEMP TABLE _l AS SELECT ${cols} FROM ${lake} WHERE ${where}`, filter.params);
    await conn.run(`CREATE OR REPLACE TEMP TABLE _g AS SELECT ${keys.join(', ')} FROM (SELECT ${cols} FROM _l EXCEPT ${W})`, filter.params);
    await conn.run(`CREATE OR REPLACE TEMP TABLE _n AS ${W} EXCEPT SELECT ${cols} FROM _l`, filter.params);
  },
  'row hash': () => conn.run(lakeDiffSql(lake, t, where, W, true), filter.params),
  // The lake side alone: each row's hash computed from its columns (the diff before ROW_HASH) or read as stored.
  'lake, hash computed': () => conn.run(`CREATE OR REPLACE TEMP TABLE _h AS SELECT rowid, ${keys.join(', ')}, hash(${dataCols}) AS h FROM ${lake} WHERE ${where}`, filter.params),
  'lake, hash stored': () => conn.run(`CREATE OR REPLACE TEMP TABLE _h AS SELECT rowid, ${keys.join(', ')}, ${ROW_HASH} AS h FROM ${lake} WHERE ${where}`, filter.params),
};
const sample = `CREATE OR REPLACE TEMP TABLE _s AS SELECT rowid AS _rid, ${keys.join(', ')} FROM ${lake} WHERE ${where} USING SAMPLE 50 ROWS`;
const deletes: Record<string, () => Promise<unknown>> = {
  'delete by key': () => conn.run(`DELETE FROM ${lake} WHERE ${where} AND (${keys.join(', ')}) IN (SELECT ${keys.join(', ')} FROM _s)`, filter.params),
  'delete by row id': () => conn.run(`DELETE FROM ${lake} WHERE rowid IN (SELECT _rid FROM _s)`),
};

const figures = new Map<string, number[]>();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, run] of Object.entries(ways)) {
    await conn.run('BEGIN TRANSACTION');
    figures.set(name, [...(figures.get(name) ?? []), await cpu(run)]);
    await conn.run('ROLLBACK');
  }
  for (const [name, run] of Object.entries(deletes)) {
    await conn.run('BEGIN TRANSACTION');
    await conn.run(sample, filter.params);
    figures.set(name, [...(figures.get(name) ?? []), await cpu(run)]);
    await conn.run('ROLLBACK');
  }
}
console.log(`CPU ms per round (the delete's sample: up to 50 of the marked rows)`);
for (const [name, ms] of figures) console.log(`  ${name.padEnd(18)} ${ms.map((m) => m.toFixed(1).padStart(7)).join(' ')}`);
conn.closeSync();
await warehouse.close();
