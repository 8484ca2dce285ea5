/**
 * What an ART index on a random string key would give the night's lookups by `utxo_id` (bench/README.md,
 * "Lookups by a random hash"): a DuckDB file holding `--rows` rows of a 49-character random id and four
 * other columns, 300 ids sampled, looked up by a join and by a constant IN list, first by scans, then
 * with `CREATE INDEX` on the id; the index's memory (`duckdb_memory()`), and an append of 10k rows with
 * it, after which the whole index is in memory. One thread; `--memory-limit` as the warehouse's (default: the product's 128MB).
 *
 *   npx tsx bench/keyIndex.ts [--rows 3000000] [--memory-limit 128MB]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_MEMORY_LIMIT } from '../activities/warehouse/warehouse.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '3000000' }, 'memory-limit': { type: 'string', default: DEFAULT_MEMORY_LIMIT } } });
const rows = Number(values.rows);
if (!Number.isInteger(rows) || rows < 1000) {
  console.error('usage: npx tsx bench/keyIndex.ts [--rows N (at least 1000)] [--memory-limit 128MB]');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'glacier-key-index-'));
const conn = await (await DuckDBInstance.create(join(dir, 'keys.duckdb'), { threads: '1', memory_limit: values['memory-limit']! })).connect();
const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
async function cpu(label: string, run: () => Promise<unknown>): Promise<void> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  console.log(`  ${label.padEnd(34)} ${((used.user + used.system) / 1000).toFixed(1).padStart(8)} CPU ms`);
}
const memory = async () => (await read('SELECT tag, memory_usage_bytes // 1048576 AS mb FROM duckdb_memory() WHERE memory_usage_bytes >= 1048576')).map((r) => `${r.tag} ${r.mb} MB`).join(', ');

try {
  console.log(`${rows} rows, memory limit ${values['memory-limit']}`);
  await cpu('build the table', () => conn.run(`CREATE TABLE t AS SELECT md5(i::VARCHAR) || substr(md5((i * 7)::VARCHAR), 1, 17) AS utxo_id, 'mainnet' AS network, i AS n, md5((i * 3)::VARCHAR) AS tx_hash, i * 1000 AS amount FROM range(${rows}) AS r(i)`));
  await conn.run('CHECKPOINT');
  const ids = (await read('SELECT utxo_id FROM t USING SAMPLE 300 ROWS')).map((r) => `'${String(r.utxo_id)}'`).join(', ');
  await conn.run(`CREATE TEMP TABLE batch AS SELECT unnest([${ids}]) AS utxo_id`);
  const join = () => read('SELECT t.rowid, t.amount FROM t JOIN batch USING (utxo_id)');
  const inList = () => read(`SELECT rowid, amount FROM t WHERE utxo_id IN (${ids})`);
  for (let round = 1; round <= 2; round++) {
    await cpu(`scan: join (round ${round})`, join);
    await cpu(`scan: constant IN list (round ${round})`, inList);
  }
  try {
    await cpu('CREATE INDEX', () => conn.run('CREATE INDEX t_utxo ON t (utxo_id)'));
  } catch (error) {
    console.log(`  CREATE INDEX failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    process.exit(0);
  }
  await conn.run('CHECKPOINT');
  for (let round = 1; round <= 3; round++) {
    await cpu(`index: constant IN list (round ${round})`, inList);
    await cpu(`index: join (round ${round})`, join);
  }
  console.log(`  memory with the index used: ${await memory()}`);
  await cpu('append 10k rows with the index', () => conn.run(`INSERT INTO t SELECT md5((i + ${rows})::VARCHAR) || 'x', 'mainnet', i, 'h', 1 FROM range(10000) AS r(i)`));
  console.log(`  memory after the append (which loads the whole index): ${await memory()}`);
} finally {
  conn.closeSync();
  rmSync(dir, { recursive: true, force: true });
}
