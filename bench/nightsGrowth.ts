/**
 * Does the DuckDB file grow with its rows or with the number of merges? Many small commits into
 * evm_blocks through the real commit path (Warehouse.commitBatch: stage, delete by key, insert, change
 * record, checkpoint row): each commit adds `new` rows and re-merges `again` stored ones (a re-listed
 * page), and every `perNight` commits the night ends (the export's read and a CHECKPOINT, as a worker
 * does when its WAL passes the threshold). Prints file bytes per stored row as the nights go by.
 *
 *   npx tsx bench/nightsGrowth.ts [nights=60] [perNight=40] [new=25] [again=25]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableByName } from '../activities/streams/catalog.ts';
import { rowsToColumns } from '../activities/warehouse/columnBatch.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';

const [nights, perNight, fresh, again] = [60, 40, 25, 25].map((d, i) => Number(process.argv[2 + i] ?? d));
const dir = mkdtempSync(join(tmpdir(), 'glacier-growth-'));
const path = join(dir, 'warehouse.duckdb');
const warehouse = await openWarehouse(path);
const blocks = tableByName('evm_blocks')!;
let next = 0n;
const row = (n: bigint, version: number) => ({
  chain_id: '43114',
  block_number: n,
  block_hash: `0x${n.toString(16).padStart(64, '0')}`,
  block_timestamp: 1_700_000_000n + n * 2n,
  parent_hash: `0x${(n - 1n).toString(16).padStart(64, '0')}`,
  tx_count: version,
  gas_used: 8_000_000n + BigInt(version),
  gas_limit: 15_000_000n,
  base_fee: '25000000000',
  base_fee_num: 25000000000n,
});
const fileBytes = () => statSync(path).size + (() => { try { return statSync(`${path}.wal`).size; } catch { return 0; } })();
console.log('night  commits  rows      file MB   bytes/row  merged rows');
let merged = 0;
for (let night = 1; night <= nights; night++) {
  for (let c = 0; c < perNight; c++) {
    const rows = [];
    for (let i = 0; i < fresh; i++) rows.push(row(next++, 1));
    // Re-merge the newest stored rows (what a re-listed page does): delete + insert of existing keys.
    for (let i = 0; i < again && next - BigInt(fresh) - 1n - BigInt(i) >= 0n; i++) rows.push(row(next - BigInt(fresh) - 1n - BigInt(i), night + c));
    merged += rows.length - fresh;
    await warehouse.commitBatch([rowsToColumns(blocks, rows)], { partitionId: 'bench/blocks', stream: 'evm.blocks', pageToken: null, cursor: { night }, rows: Number(next), pages: night * perNight + c, complete: true });
  }
  await warehouse.withWriter((w) => w.run('CHECKPOINT'));
  if (night === 1 || night % 10 === 0 || night === nights) {
    const [{ n }] = await warehouse.query('SELECT count(*) AS n FROM evm_blocks');
    const bytes = fileBytes();
    console.log(`${String(night).padStart(5)}  ${String(night * perNight).padStart(7)}  ${String(n).padStart(8)}  ${(bytes / 1e6).toFixed(2).padStart(8)}  ${(bytes / Number(n)).toFixed(1).padStart(9)}  ${String(merged).padStart(11)}`);
  }
}
await warehouse.close();
rmSync(dir, { recursive: true, force: true });
