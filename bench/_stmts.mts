import { DuckDBInstance } from '@duckdb/node-api';
import { tableMergeStatements } from '../activities/warehouse/mergeSql.ts';
import { pnTransactionUtxosTable, pnAddressTransactionsTable } from '../activities/streams/pnTransactions.ts';
const withTime = false;
const inst = await DuckDBInstance.create('/tmp/exp/w30.duckdb', { threads: '1', memory_limit: '128MB' });
const conn = await inst.connect();
const q = async (s: string) => (await conn.runAndReadAll(s)).getRowObjectsJS();
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const utxoDef = withTime ? { ...pnTransactionUtxosTable, columns: [...pnTransactionUtxosTable.columns, { name: 'tx_block_timestamp', type: 'BIGINT' }], pruneBy: 'tx_block_timestamp' } : pnTransactionUtxosTable;
const cols = (d: any) => d.columns.map((c: any) => `"${c.name}"`).join(', ');
// A night's stages: the newest 0.5% by tx time, as the night's batches would carry them.
await conn.run(`CREATE OR REPLACE TEMP TABLE st_u AS SELECT ${cols(utxoDef)} FROM pn_transaction_utxos WHERE tx_block_timestamp >= (SELECT quantile_disc(tx_block_timestamp, 0.997) FROM pn_transaction_utxos)`);
await conn.run(`CREATE OR REPLACE TEMP TABLE st_a AS SELECT ${cols(pnAddressTransactionsTable)} FROM pn_address_transactions WHERE block_timestamp >= (SELECT quantile_disc(block_timestamp, 0.997) FROM pn_address_transactions)`);
console.log(await q(`SELECT (SELECT count(*) FROM st_u) u, (SELECT count(*) FROM st_a) a`));
for (const [def, stage] of [[utxoDef, 'st_u'], [pnAddressTransactionsTable, 'st_a']] as const) {
  let stmts = tableMergeStatements(def as any, stage, { constrained: false });
  if (withTime && def === pnAddressTransactionsTable) stmts = stmts.map((s) => s.replaceAll('SEMI JOIN "st_a" AS a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash', 'SEMI JOIN "st_a" AS a ON t.network = a.network AND t.blockchain_id = a.blockchain_id AND t.tx_hash = a.tx_hash AND t.tx_block_timestamp = a.block_timestamp').replaceAll('SEMI JOIN "st_a" AS a ON e.network = a.network AND e.blockchain_id = a.blockchain_id AND e.tx_hash = a.tx_hash', 'SEMI JOIN "st_a" AS a ON e.network = a.network AND e.blockchain_id = a.blockchain_id AND e.tx_hash = a.tx_hash AND e.tx_block_timestamp = a.block_timestamp'));
  stmts = stmts.flatMap((s) => s.split(/;\s*\n/).map((x) => x.replace(/^(\s*--[^\n]*\n)+/g, '').trim()).filter((x) => x.length > 0));
  const totals = new Array(stmts.length).fill(Infinity);
  for (let r = 0; r < 3; r++) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE keep_stage AS SELECT * FROM ${stage}`);
    await conn.run('BEGIN');
    for (let i = 0; i < stmts.length; i++) { const c0 = cpu(); await conn.run(stmts[i]); totals[i] = Math.min(totals[i], cpu() - c0); }
    await conn.run('ROLLBACK');
    await conn.run(`CREATE OR REPLACE TEMP TABLE ${stage} AS SELECT * FROM keep_stage`);
  }
  console.log(`${def.name}: ${totals.reduce((a, b) => a + b, 0).toFixed(0)} ms`);
  stmts.forEach((s, i) => totals[i] > 3 && console.log(`  ${totals[i].toFixed(1).padStart(7)} ms  ${s.replace(/\s+/g, ' ').slice(0, 150)}`));
}
// pn_utxos: the newest 0.3% by creation as a UTXO-list page would carry them (unspent first)
import { pnUtxosTable } from '../activities/streams/pnUtxos.ts';
await conn.run(`CREATE OR REPLACE TEMP TABLE st_p AS SELECT ${cols(pnUtxosTable)} FROM pn_utxos WHERE block_timestamp >= (SELECT quantile_disc(block_timestamp, 0.997) FROM pn_utxos)`);
{
  let stmts = tableMergeStatements(pnUtxosTable as any, 'st_p', { constrained: false });
  stmts = stmts.flatMap((s) => s.split(/;\s*\n/).map((x) => x.replace(/^(\s*--[^\n]*\n)+/g, '').trim()).filter((x) => x.length > 0));
  const totals = new Array(stmts.length).fill(Infinity);
  for (let r = 0; r < 3; r++) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE keep_stage AS SELECT * FROM st_p`);
    await conn.run('BEGIN');
    for (let i = 0; i < stmts.length; i++) { const c0 = cpu(); await conn.run(stmts[i]); totals[i] = Math.min(totals[i], cpu() - c0); }
    await conn.run('ROLLBACK');
    await conn.run(`CREATE OR REPLACE TEMP TABLE st_p AS SELECT * FROM keep_stage`);
  }
  console.log(`pn_utxos (${(await q('SELECT count(*) n FROM st_p'))[0].n} staged): ${totals.reduce((a, b) => a + b, 0).toFixed(0)} ms`);
  stmts.forEach((s, i) => totals[i] > 3 && console.log(`  ${totals[i].toFixed(1).padStart(7)} ms  ${s.replace(/\s+/g, ' ').slice(0, 150)}`));
}
