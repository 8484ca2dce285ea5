/**
 * Whether a kept world's lake answers sorts and filters right (bench/README.md, "The lake's column
 * bounds"): the table-level column bounds known (what activities/lake/tableBounds.ts clears after
 * each commit), then, read by a fresh DuckDB, `pn_transaction_utxos`'
 * `consuming_tx_timestamp` below the warehouse's median counted, and sorted by `block_timestamp`, the
 * values outside the warehouse's range, each against the warehouse.
 *
 *   npm run bench:nights -- --skip-nights --skip-idle --scaling 100 --scaling-nights 1 --checks none --keep
 *   npx tsx bench/lakeBounds.ts --dir data/bench-nights/scale-100x/data [--clear]
 *
 * --clear runs the export's clearTableBounds on that lake, then reads again. A world kept by a build
 * before the repair (b021577^) shows the lake as DuckLake 1.5.5 left it.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { attachLake } from '../activities/lake/lake.ts';
import { type LakeSettings } from '../activities/lake/settings.ts';
import { clearTableBounds } from '../activities/lake/tableBounds.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' }, clear: { type: 'boolean', default: false } } });
if (!values.dir) {
  console.error("usage: npx tsx bench/lakeBounds.ts --dir <a kept bench:nights world's data dir> [--clear]");
  process.exit(2);
}
const dir = resolve(values.dir);
const lake: LakeSettings = { format: 'ducklake', catalog: `sqlite:${dir}/lake/catalog.sqlite`, dataPath: `${dir}/lake/data/`, snapshotDays: 1 };

/** A fresh DuckDB with the warehouse read-only and the lake attached, as another reader would. */
async function reader(readOnly: boolean) {
  const conn = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  await conn.run(`ATTACH '${dir}/warehouse.duckdb' AS wh (READ_ONLY)`);
  const alias = await attachLake(conn, lake, { readOnly, alias: 'glacier_lake' });
  const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
  return { conn, alias, read };
}

async function report(label: string): Promise<void> {
  const { conn, alias, read } = await reader(true);
  const [known] = await read(`SELECT count(*) FILTER (min_value IS NOT NULL OR max_value IS NOT NULL) AS n, count(*) AS of FROM __ducklake_metadata_${alias}.ducklake_table_column_stats`);
  const [w] = await read(`SELECT median(consuming_tx_timestamp)::BIGINT AS mid, min(consuming_tx_timestamp) AS lo, max(consuming_tx_timestamp) AS hi FROM wh.pn_transaction_utxos`);
  const below = async (db: string) => Number((await read(`SELECT count(*) AS n FROM ${db}.pn_transaction_utxos WHERE consuming_tx_timestamp < ${w.mid}`))[0].n);
  const sorted = (await read(`SELECT consuming_tx_timestamp AS v FROM ${alias}.main.pn_transaction_utxos ORDER BY block_timestamp`)).filter((r) => r.v !== null);
  const outside = sorted.filter((r) => BigInt(r.v as bigint) < BigInt(w.lo as bigint) || BigInt(r.v as bigint) > BigInt(w.hi as bigint)).length;
  console.log(`${label}: ${known.n} of ${known.of} table column bounds known`);
  console.log(`  pn_transaction_utxos.consuming_tx_timestamp < ${w.mid}: lake ${await below(`${alias}.main`)} rows, warehouse ${await below('wh.main')}`);
  console.log(`  sorted by block_timestamp: ${outside} of ${sorted.length} values outside the warehouse's range ${w.lo}..${w.hi}`);
  conn.closeSync();
}

await report('as found');
if (values.clear) {
  const { conn, alias } = await reader(false);
  console.log(`cleared ${await clearTableBounds(conn, alias)} column bounds`);
  conn.closeSync();
  await report('after clearing');
}
