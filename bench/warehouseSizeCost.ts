/**
 * What does it cost to record a warehouse's size at the end of a run (activities/warehouse/runSizes.ts)?
 * Fills evm_blocks of a real warehouse (the product's schema, its default memory limit) with `rows`
 * rows in SQL, re-merges `merged` of them the way a commit does (delete by key, insert), checkpoints,
 * then times, on a fresh open (cold) and again (warm): exact `count(*)` of every data table in one
 * query, duckdb_tables()' estimated_size, and the whole size record.
 * (The lake's size is what its last export recorded: no walk of its files.)
 *
 *   npx tsx bench/warehouseSizeCost.ts [rows=10000000] [merged=100000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openWarehouse, type Warehouse } from '../activities/warehouse/warehouse.ts';
import { measureWarehouse } from '../activities/warehouse/runSizes.ts';
import { allTables } from '../activities/streams/catalog.ts';

const [rows, merged] = [10_000_000, 100_000].map((d, i) => Number(process.argv[2 + i] ?? d));
const dir = mkdtempSync(join(tmpdir(), 'glacier-sizecost-'));
const path = join(dir, 'warehouse.duckdb');
const tables = allTables().map((t) => t.name);
const blockRows = (from: string, to: string, version: number) => `
  INSERT INTO evm_blocks (chain_id, block_number, block_hash, block_timestamp, parent_hash, tx_count, gas_used, gas_limit, base_fee, base_fee_num)
  SELECT '43114', i, printf('0x%064x', i), 1700000000 + i * 2, printf('0x%064x', i - 1), ${version}, 8000000 + i % 1000, 15000000, '25000000000', 25000000000
  FROM range(${from}, ${to}) t(i)`;

// Filled with a larger buffer than a worker's (the primary key index of 10M rows); measured with the default.
let warehouse: Warehouse = await openWarehouse(path, { memoryLimit: '2GB' });
const t = performance.now();
for (let from = 0; from < rows; from += 1_000_000) await warehouse.withWriter((w) => w.run(blockRows(String(from), String(Math.min(rows, from + 1_000_000)), 1)));
// A merge deletes the stored rows of the keys it writes, then inserts them: spread over the table.
const step = Math.max(1, Math.floor(rows / Math.max(1, merged)));
await warehouse.withWriter(async (w) => {
  await w.run(`DELETE FROM evm_blocks WHERE block_number % ${step} = 0 AND block_number < ${merged * step}`);
  await w.run(blockRows('0', String(merged * step), 2).replace('FROM range(0, ' + merged * step + ') t(i)', `FROM range(0, ${merged * step}, ${step}) t(i)`));
  await w.run('CHECKPOINT');
});
console.log(`filled ${rows.toLocaleString('en-US')} rows, re-merged ${merged.toLocaleString('en-US')} in ${((performance.now() - t) / 1000).toFixed(1)} s; file ${(statSync(path).size / 1e6).toFixed(0)} MB`);
await warehouse.close();

const time = async (label: string, fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  const out = await fn();
  console.log(`${label.padEnd(44)} ${(performance.now() - t0).toFixed(1).padStart(8)} ms`);
  return out;
};
const exact = `SELECT ${tables.map((n) => `(SELECT count(*) FROM ${n})`).join(' + ')} AS n`;
for (const pass of ['cold (fresh open)', 'warm']) {
  if (pass.startsWith('cold')) warehouse = await openWarehouse(path);
  for (let i = 0; i < 3; i++) {
    await time(`${pass}: count(*) of ${tables.length} tables`, () => warehouse.query(exact));
    await time(`${pass}: duckdb_tables() estimated_size`, () => warehouse.query('SELECT sum(estimated_size) FROM duckdb_tables()'));
    await time(`${pass}: measureWarehouse (counts + file bytes)`, () => measureWarehouse(warehouse, tables));
  }
}
const [{ exactRows }] = await warehouse.query(`SELECT (${exact.slice(7, -5)})::BIGINT AS exactRows`);
const [{ est }] = await warehouse.query("SELECT estimated_size AS est FROM duckdb_tables() WHERE table_name = 'evm_blocks'");
console.log(`rows: exact ${exactRows}, evm_blocks estimated_size ${est}`);
await warehouse.close();

rmSync(dir, { recursive: true, force: true });
