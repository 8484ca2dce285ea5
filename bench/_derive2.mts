import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { expandLakeKeys } from '../activities/warehouse/lakeKeys.ts';
const inst = await DuckDBInstance.create('/tmp/exp/w30.duckdb', { threads: '1', memory_limit: '128MB' });
const conn = await inst.connect();
const q = async (s: string) => (await conn.runAndReadAll(s)).getRowObjectsJS();
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
await conn.run(`CREATE OR REPLACE TEMP TABLE a AS SELECT network, blockchain_id, tx_hash, address_set, block_timestamp FROM pn_address_transactions WHERE block_timestamp >= (SELECT quantile_disc(block_timestamp, 0.997) FROM pn_address_transactions)`);
const full = expandLakeKeys(readFileSync('sql/ops/deriveUtxosFromTransactions.sql', 'utf8')).replaceAll('{stage}', 'a');
const first = full.split(/;\s*\n/)[0];
const variants: Record<string, string> = {
  current: first,
  'tx time on linked': first.replace('SEMI JOIN a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash', 'SEMI JOIN a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash AND t.tx_block_timestamp = a.block_timestamp'),
};
variants['+ candidates since'] = variants['tx time on linked'].replace('SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id)', 'SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id WHERE t.tx_block_timestamp >= (SELECT min(block_timestamp) FROM a))');
variants['+ candidates since, outer'] = variants['tx time on linked'].replace('AS r ON t.rowid = r.rid\nQUALIFY', 'AS r ON t.rowid = r.rid\nWHERE t.tx_block_timestamp >= (SELECT min(block_timestamp) FROM a)\nQUALIFY').replace('SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id)', 'SEMI JOIN linked AS l ON l.network = t.network AND l.blockchain_id = t.blockchain_id AND l.utxo_id = t.utxo_id WHERE t.tx_block_timestamp >= (SELECT min(block_timestamp) FROM a))');
const results: Record<string, string> = {};
for (const [name, sql] of Object.entries(variants)) {
  if (sql === first && name !== 'current') { console.log(name, 'NOT REPLACED'); continue; }
  const t: number[] = [];
  for (let r = 0; r < 3; r++) { const c0 = cpu(); await conn.run(sql); t.push(cpu() - c0); }
  const rows = await q(`SELECT md5(string_agg(x::VARCHAR, '|' ORDER BY x::VARCHAR)) AS h, count(*) AS n FROM _derived_utxos AS x`);
  results[name] = `${rows[0].h} ${rows[0].n}`;
  console.log(`${name.padEnd(28)} ${Math.min(...t).toFixed(1)} ms  ${results[name]}`);
}
