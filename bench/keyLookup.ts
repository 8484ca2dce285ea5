/**
 * What a lookup by a random hash costs on a long history: a night's spends find the stored rows that
 * emitted the UTXOs they consume by `utxo_id` (sql/ops/propagateUtxoSpends.sql), whatever their age, so
 * DuckDB scans that column of the whole stored table past the batch's hash table (zone maps cannot
 * skip row groups for random strings). Times, in one DuckDB file at the worker's defaults (one
 * thread, the sync-time buffer limit), the same lookup of a batch's consumed UTXOs three ways:
 *   string          the join on (network, utxo_id), as the follow-up SQL runs it
 *   string, row id  the key columns first, then the rows fetched by row id (storedRows.ts)
 *   64-bit key      a UBIGINT column beside the hash (md5_number_upper(utxo_id), which JavaScript
 *                   computes the same: the first 8 bytes of its MD5, little-endian), joined first,
 *                   then the rows fetched by row id and the string compared
 * on tables of pn_transaction_utxos' width at each history size, and the first two again for a
 * statement that needs every column of the rows it finds ("wide"). Prints CPU ms per lookup (best of
 * `--rounds`) and the ratios; then the spends' statements as a commit runs them, the spent rows
 * found by each statement (before) against found once into a temporary table (SPENDS below).
 *
 *   npx tsx bench/keyLookup.ts [--rows 300000,3000000] [--batch 300] [--rounds 3]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_MEMORY_LIMIT } from '../activities/warehouse/warehouse.ts';
import { tempDir } from './benchWorld.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '300000,3000000' }, batch: { type: 'string', default: '300' }, rounds: { type: 'string', default: '3' } } });
const sizes = values.rows.split(',').map(Number);
const batch = Number(values.batch);
const rounds = Number(values.rounds);
if (sizes.some((n) => !Number.isInteger(n) || n < 1000) || !Number.isInteger(batch) || batch < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: npx tsx bench/keyLookup.ts [--rows N,N] [--batch N] [--rounds N]');
  process.exit(2);
}

/** A base58-looking id of about 50 characters from a number (random order, as hashes are). */
const id = (expr: string) => `substr(replace(to_base64(unhex(sha256(CAST(${expr} AS VARCHAR)))), '/', 'x'), 1, 50)`;

async function build(conn: DuckDBConnection, rows: number): Promise<void> {
  await conn.run(`CREATE OR REPLACE TABLE t AS SELECT 'mainnet' AS network, '11111111111111111111111111111111LpoYY' AS blockchain_id, ${id('i // 4')} AS tx_hash,
    CASE WHEN i % 2 = 0 THEN 'emitted' ELSE 'consumed' END AS direction, CAST(i % 4 AS INTEGER) AS item_index, ${id('i')} AS utxo_id,
    [${id('i + 1')}] AS addresses, CAST(i * 1000 AS HUGEINT) AS amount, 1700000000 + i AS block_timestamp, NULL::VARCHAR AS consuming_tx_hash,
    NULL::BIGINT AS consuming_block_number, NULL::BIGINT AS consuming_block_timestamp, NULL::VARCHAR AS creation_tx_hash, ${id('i + 2')} AS utxo_bytes
    FROM range(${rows}) AS r(i)`);
  await conn.run('ALTER TABLE t ADD COLUMN utxo_key UBIGINT');
  await conn.run('UPDATE t SET utxo_key = md5_number_upper(utxo_id)');
  // The batch: consumed copies of stored emitted UTXOs spread over the whole history.
  await conn.run(`CREATE OR REPLACE TABLE s AS SELECT 'mainnet' AS network, ${id(`(k * 7919 % ${Math.floor(rows / 2)}) * 2`)} AS utxo_id, 'consumed' AS direction, ${id('k + 99')} AS tx_hash, 1800000000 AS consuming_block_timestamp FROM range(${batch}) AS r(k)`);
  await conn.run('CHECKPOINT');
}

/** The stored emitted rows a consumed row of the batch spends (e: the table, c: the batch), as the spends' SQL selects them. */
const SPENT = `WHERE c.direction = 'consumed' AND e.direction = 'emitted' AND e.network = c.network AND e.utxo_id = c.utxo_id AND e.consuming_tx_hash IS DISTINCT FROM c.tx_hash`;

const LOOKUPS: Record<string, string> = {
  string: `SELECT e.rowid AS rid, e.block_timestamp, e.creation_tx_hash, c.tx_hash FROM t AS e, s AS c
    ${SPENT}`,
  'string, row id': `SELECT e.rid, e.block_timestamp, e.creation_tx_hash, c.tx_hash FROM (
      SELECT e.rowid AS rid, e.* FROM t AS e JOIN (SELECT e.rowid AS rid FROM t AS e SEMI JOIN s AS c ON c.direction = 'consumed' AND e.network = c.network AND e.utxo_id = c.utxo_id) AS r ON e.rowid = r.rid
    ) AS e, s AS c
    ${SPENT}`,
  '64-bit key': `SELECT e.rid, e.block_timestamp, e.creation_tx_hash, c.tx_hash FROM (
      SELECT e.rowid AS rid, e.* FROM t AS e JOIN (SELECT e.rowid AS rid FROM t AS e SEMI JOIN s AS c ON c.direction = 'consumed' AND e.utxo_key = md5_number_upper(c.utxo_id)) AS r ON e.rowid = r.rid
    ) AS e, s AS c
    ${SPENT}`,
  // The same two ways when the statement needs every column of the rows found (keepUtxoSpends.sql, the derived UTXOs).
  'wide: string': `SELECT e.* FROM t AS e, s AS c
    ${SPENT}`,
  'wide: row id': `SELECT e.* FROM (
      SELECT e.* FROM t AS e JOIN (SELECT e.rowid AS rid FROM t AS e SEMI JOIN s AS c ON c.direction = 'consumed' AND e.network = c.network AND e.utxo_id = c.utxo_id) AS r ON e.rowid = r.rid
    ) AS e, s AS c
    ${SPENT}`,
};

/**
 * The spends' statements, before and after sql/ops/propagateUtxoSpends.sql found the spent rows once:
 * a marks statement and an UPDATE each joining the stored table, against one join into a temporary
 * table that the marks and an UPDATE by row id read.
 */
const SPENDS = {
  before: [
    `CREATE OR REPLACE TEMP TABLE marks AS SELECT DISTINCT e.blockchain_id || '/' || CAST(e.block_timestamp // 86400 AS VARCHAR) AS k FROM t AS e, s AS c
      ${SPENT}`,
    `UPDATE t AS e SET consuming_tx_hash = c.tx_hash, consuming_block_timestamp = c.consuming_block_timestamp, consuming_block_number = CASE WHEN e.creation_tx_hash IS NULL THEN 1 END FROM s AS c
      ${SPENT}`,
  ],
  after: [
    `CREATE OR REPLACE TEMP TABLE spends AS SELECT e.rowid AS rid, e.blockchain_id || '/' || CAST(e.block_timestamp // 86400 AS VARCHAR) AS k, c.tx_hash, c.consuming_block_timestamp,
        CASE WHEN e.creation_tx_hash IS NULL THEN 1 END AS consuming_block_number FROM t AS e, s AS c
      ${SPENT}`,
    'CREATE OR REPLACE TEMP TABLE marks AS SELECT DISTINCT k FROM spends',
    'UPDATE t AS e SET consuming_tx_hash = x.tx_hash, consuming_block_timestamp = x.consuming_block_timestamp, consuming_block_number = x.consuming_block_number FROM spends AS x WHERE e.rowid = x.rid',
  ],
};
const spends: [number, number[]][] = [];

/** The least process CPU, in ms, that `fn` took over `rounds` calls (`around` runs outside the timing: a transaction begun, rolled back). */
async function bestCpuMs(fn: () => Promise<void>, around?: { before(): Promise<unknown>; after(): Promise<unknown> }): Promise<number> {
  let min = Infinity;
  for (let r = 0; r < rounds; r++) {
    await around?.before();
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    await around?.after();
    min = Math.min(min, (c.user + c.system) / 1000);
  }
  return min;
}

async function spendStatements(conn: DuckDBConnection): Promise<number[]> {
  const rolledBack = { before: () => conn.run('BEGIN TRANSACTION'), after: () => conn.run('ROLLBACK') };
  const out: number[] = [];
  for (const statements of [SPENDS.before, SPENDS.after]) {
    out.push(
      await bestCpuMs(async () => {
        for (const sql of statements) await conn.run(sql);
      }, rolledBack),
    );
  }
  return out;
}

const dir = tempDir('key-lookup');
try {
  const instance = await DuckDBInstance.create(join(dir.dir, 'lookup.duckdb'), { threads: '1', memory_limit: DEFAULT_MEMORY_LIMIT });
  const conn = await instance.connect();
  console.log(`key lookups: a batch of ${batch} consumed UTXOs against each history (one thread, memory limit ${DEFAULT_MEMORY_LIMIT}); CPU ms per lookup, best of ${rounds}`);
  console.log(`${'stored rows'.padStart(12)} ${Object.keys(LOOKUPS).map((k) => k.padStart(16)).join('')}  matches`);
  for (const rows of sizes) {
    await build(conn, rows);
    const best: number[] = [];
    let matches = -1;
    for (const sql of Object.values(LOOKUPS)) {
      best.push(
        await bestCpuMs(async () => {
          const n = Number((await conn.runAndReadAll(`SELECT count(*) AS n FROM (${sql})`)).getRowObjectsJS()[0].n);
          if (matches >= 0 && n !== matches) throw new Error(`the lookups disagree: ${n} rows against ${matches}`);
          matches = n;
        }),
      );
    }
    console.log(`${rows.toLocaleString('en-US').padStart(12)} ${best.map((ms) => ms.toFixed(1).padStart(16)).join('')}  ${matches}`);
    console.log(`${''.padStart(12)} ${best.map((ms) => `${(ms / best[0]).toFixed(2)}x`.padStart(16)).join('')}`);
    spends.push([rows, await spendStatements(conn)]);
  }
  console.log(`\nthe spends' statements as a commit runs them (each round rolled back), CPU ms, best of ${rounds}:`);
  console.log(`${'stored rows'.padStart(12)} ${'marks, update'.padStart(16)} ${'found once'.padStart(16)}  ratio`);
  for (const [rows, [a, b]] of spends) console.log(`${rows.toLocaleString('en-US').padStart(12)} ${a.toFixed(1).padStart(16)} ${b.toFixed(1).padStart(16)}  ${(b / a).toFixed(2)}x`);
  conn.closeSync();
  instance.closeSync();
} finally {
  dir.remove();
}
