/**
 * Lake layout for a year of nights: one Parquet file per (chain, day) as the export writes them
 * today, against one file per (chain, month) for past months. The same rows (evm_blocks-shaped,
 * `perDay` blocks a day for `days` days, 2 chains) in both layouts; DuckDB's read_parquet over the
 * hive glob as an analyst runs it: one day (the date filter, or the day's time range on monthly
 * files) and the whole history (an aggregate over every row). Prints files, bytes and the median of
 * 5 runs of each query. `v2` is lake layout 2 as the export writes it (a link to a generation, hive
 * keys chain_id and month, one file per past month and one per day of the newest month), read through
 * the link; its "newest day" reads one of those day files.
 *
 *   npx tsx bench/lakeLayout.ts [days=365] [perDay=2000]
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const days = Number(process.argv[2] ?? 365);
const perDay = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'glacier-lake-layout-'));
const c = await (await DuckDBInstance.create(':memory:')).connect();
const t0 = 1_672_531_200; // 2023-01-01
await c.run(`CREATE TABLE b AS
  SELECT (i % 2)::VARCHAR AS chain_id, i AS block_number, md5(i::VARCHAR) AS block_hash, ${t0} + (i // 2) * (86400 // ${perDay}) AS block_timestamp,
         md5((i - 1)::VARCHAR) AS parent_hash, (i % 37)::INTEGER AS tx_count, 8000000 + i % 1000 AS gas_used
  FROM range(${days * perDay * 2}) r(i)`);
const day = `strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m-%d')`;
const month = `strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m')`;
await c.run(`COPY (SELECT *, ${day} AS date FROM b) TO '${dir}/daily' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (chain_id, date))`);
await c.run(`COPY (SELECT *, ${month} AS month, ${day}::DATE AS date FROM b) TO '${dir}/monthly' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (chain_id, month))`);
// Lake layout 2 as the export writes it: the table is a link to a generation; hive keys chain_id then
// month; one file per past month and one per day of the newest month (no date column in the files).
const gen = join(dir, 'v2lake', '.generations', 'blocks', 'g000001');
const lastMonth = String((await c.runAndReadAll(`SELECT max(${month}) AS m FROM b`)).getRowObjectsJS()[0].m);
const fileCols = 'block_number, block_hash, block_timestamp, parent_hash, tx_count, gas_used';
for (const chain of ['0', '1']) {
  for (const r of (await c.runAndReadAll(`SELECT DISTINCT ${month} AS m FROM b WHERE ${month} < '${lastMonth}'`)).getRowObjectsJS()) {
    mkdirSync(join(gen, `chain_id=${chain}`, `month=${String(r.m)}`), { recursive: true });
    await c.run(`COPY (SELECT ${fileCols} FROM b WHERE chain_id = '${chain}' AND ${month} = '${String(r.m)}') TO '${join(gen, `chain_id=${chain}`, `month=${String(r.m)}`, 'month.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  }
  mkdirSync(join(gen, `chain_id=${chain}`, `month=${lastMonth}`), { recursive: true });
  for (const r of (await c.runAndReadAll(`SELECT DISTINCT ${day} AS d FROM b WHERE ${month} = '${lastMonth}'`)).getRowObjectsJS()) {
    await c.run(`COPY (SELECT ${fileCols} FROM b WHERE chain_id = '${chain}' AND ${day} = '${String(r.d)}') TO '${join(gen, `chain_id=${chain}`, `month=${lastMonth}`, `day-${String(r.d)}.parquet`)}' (FORMAT parquet, COMPRESSION zstd)`);
  }
}
symlinkSync('.generations/blocks/g000001', join(dir, 'v2lake', 'blocks'));
const newestDay = String((await c.runAndReadAll(`SELECT max(${day}) AS d FROM b`)).getRowObjectsJS()[0].d);

const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
async function time(sql: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await c.runAndReadAll(sql);
    runs.push(performance.now() - s);
  }
  return runs.sort((a, b) => a - b)[2];
}
const probe = '2023-07-15';
const lo = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
console.log(`${days} days x ${perDay} blocks x 2 chains = ${days * perDay * 2} rows; newest day ${newestDay}`);
console.log('layout   files  MB      one day ms  whole history ms  newest day ms  one day by date only ms');
for (const layout of ['daily', 'monthly', 'v2']) {
  const files = walk(layout === 'v2' ? gen : join(dir, layout));
  const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
  const glob = `read_parquet('${layout === 'v2' ? join(dir, 'v2lake', 'blocks') : join(dir, layout)}/**/*.parquet', hive_partitioning = true)`;
  const oneDay = (d: string) =>
    layout === 'daily'
      ? `SELECT count(*), sum(tx_count) FROM ${glob} WHERE chain_id = '1' AND date = '${d}'`
      : `SELECT count(*), sum(tx_count) FROM ${glob} WHERE chain_id = '1' AND month = '${d.slice(0, 7)}' AND block_timestamp >= ${lo(d)} AND block_timestamp < ${lo(d) + 86400}`;
  const whole = `SELECT chain_id, count(*), sum(tx_count), max(block_number) FROM ${glob} GROUP BY chain_id`;
  // What an analyst types without knowing the layout: the date column alone (hive key or file column; v2 files have none).
  const byDate = `SELECT count(*), sum(tx_count) FROM ${glob} WHERE chain_id = '1' AND date = '${probe}'`;
  const dateOnly = layout === 'v2' ? '-' : (await time(byDate)).toFixed(1);
  console.log(
    `${layout.padEnd(7)}  ${String(files.length).padStart(5)}  ${mb.toFixed(1).padStart(5)}  ${(await time(oneDay(probe))).toFixed(1).padStart(10)}  ${(await time(whole)).toFixed(1).padStart(16)}  ${(await time(oneDay(newestDay))).toFixed(1).padStart(13)}  ${dateOnly.padStart(23)}`,
  );
}
rmSync(dir, { recursive: true, force: true });
