import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create('/tmp/exp/w30.duckdb', { threads: '1', memory_limit: '128MB' });
const conn = await inst.connect();
const q = async (s: string) => (await conn.runAndReadAll(s)).getRowObjectsJS();
console.log(await q(`SELECT count(*) n, max(rowid) m FROM pn_transaction_utxos`));
const hasCol = (await q(`SELECT count(*) AS n FROM duckdb_columns() WHERE table_name='pn_transaction_utxos' AND column_name='tx_block_timestamp'`))[0].n;
if (!Number(hasCol)) {
  await conn.run(`ALTER TABLE pn_transaction_utxos ADD COLUMN tx_block_timestamp BIGINT`);
  await conn.run(`UPDATE pn_transaction_utxos AS u SET tx_block_timestamp = t.block_timestamp FROM pn_transactions AS t WHERE t.network = u.network AND t.blockchain_id = u.blockchain_id AND t.tx_hash = u.tx_hash`);
  await conn.run('CHECKPOINT');
}
console.log(await q(`SELECT count(*) FILTER (tx_block_timestamp IS NULL) AS nulls FROM pn_transaction_utxos`));
// The night's rows: the newest transactions (by tx time) as a stage.
await conn.run(`CREATE OR REPLACE TEMP TABLE s AS SELECT * FROM pn_transaction_utxos WHERE tx_block_timestamp >= (SELECT quantile_disc(tx_block_timestamp, 0.995) FROM pn_transaction_utxos)`);
await conn.run(`CREATE OR REPLACE TEMP TABLE a AS SELECT * FROM pn_address_transactions WHERE block_timestamp >= (SELECT quantile_disc(block_timestamp, 0.995) FROM pn_address_transactions)`);
console.log(await q(`SELECT (SELECT count(*) FROM s) s, (SELECT count(*) FROM a) a`));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const K = `t.network = s.network AND t.blockchain_id = s.blockchain_id AND t.tx_hash = s.tx_hash AND t.direction = s.direction AND t.item_index = s.item_index`;
const cases: Record<string, string> = {
  'merge key': `SELECT count(*) FROM pn_transaction_utxos t JOIN s ON ${K}`,
  'merge key + tx time': `SELECT count(*) FROM pn_transaction_utxos t JOIN s ON ${K} AND t.tx_block_timestamp = s.tx_block_timestamp`,
  'derive by tx': `SELECT count(*) FROM pn_transaction_utxos AS t SEMI JOIN a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash`,
  'derive by tx + time': `SELECT count(*) FROM pn_transaction_utxos AS t SEMI JOIN a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash AND t.tx_block_timestamp = a.block_timestamp`,
  'spends by utxo_id': `SELECT count(*) FROM pn_transaction_utxos AS e JOIN s AS c ON c.direction = 'consumed' AND e.direction = 'emitted' AND e.network = c.network AND e.utxo_id = c.utxo_id`,
};
for (let round = 0; round < 2; round++) for (const [name, sql] of Object.entries(cases)) {
  const t: number[] = []; let n;
  for (let r = 0; r < 3; r++) { const c0 = cpu(); n = (await q(sql))[0]; t.push(cpu() - c0); }
  console.log(`${name.padEnd(22)} ${Math.min(...t).toFixed(1)} ms  ${JSON.stringify(n, (_, v) => typeof v === 'bigint' ? Number(v) : v)}`);
}
