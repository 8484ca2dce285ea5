import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { snapshotWalksExport } from '../../activities/warehouse/snapshotWalksTable.ts';
import { EXPORT_MEMORY_LIMIT, exportParquet } from '../../activities/warehouse/export.ts';
import { GENERATION_MARKER } from '../../activities/warehouse/lakeGenerations.ts';
import { lakeColumnsOf, lakeFiles } from '../helpers/lakeFiles.ts';
import { rowsToColumns } from '../../activities/warehouse/index.ts';
import { drainAll, startHarness, type Harness } from './harness.ts';
import { LAKE_VERSION_FILE } from '../../activities/warehouse/lakeLayout.ts';

/** The Parquet export re-read with read_parquet equals the tables; exports are incremental and contained. */

let h: Harness;
let out: string;

const walk = lakeFiles;

beforeAll(async () => {
  h = await startHarness({
    config: (sim) => {
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[]; addresses: string[]; contracts: { chainId: string; address: string }[] };
      const chainId = evm.chains[0].chainId;
      return {
        streams: ['evm.blocks', 'evm.token_transfers', 'evm.erc20_balances', 'evm.erc721_balances'],
        evmChains: [{ chainId, addresses: evm.addresses.slice(0, 2), contracts: evm.contracts.filter((c) => c.chainId === chainId).map((c) => c.address) }],
      };
    },
  });
  await drainAll(h, h.config.streams);
  // A primary-network row with a LIST, a HUGEINT beyond 64 bits and JSON, committed like any page.
  const utxos = tableByName('pn_utxos')!;
  await h.warehouse.commitBatch(
    [
      rowsToColumns(utxos, [
        { network: 'mainnet', blockchain_id: 'p-chain', utxo_id: 'u1', addresses: ['avax1a', 'avax1b'], amount: 123456789012345678901234567n, block_timestamp: 1_700_000_000n, credentials: '[{"signature":"s"}]', staked: true },
        { network: 'mainnet', blockchain_id: 'p-chain', utxo_id: 'u2', addresses: [], amount: null, block_timestamp: null },
      ]),
    ],
    { partitionId: 'test/pn', stream: 'pn.utxos', pageToken: null, cursor: {}, rows: 2, pages: 1, complete: true },
  );
  out = join(h.dir, 'parquet');
});

afterAll(async () => {
  await h?.close();
});

async function assertSame(table: string) {
  const def = tableByName(table) ?? snapshotWalksExport;
  const lake = lakeColumnsOf(def);
  const glob = join(out, table, '**', '*.parquet');
  const fromParquet = `SELECT ${lake.file.join(', ')} FROM read_parquet('${glob}', hive_partitioning = true, hive_types_autocast = false)`;
  const fromTable = `SELECT ${lake.table.join(', ')} FROM "${table}"`;
  // The comparison (every column as text, both ways) is the test's own query: it gets room beyond the sync-time buffer limit.
  await h.warehouse.query(`SET memory_limit = '${EXPORT_MEMORY_LIMIT}'`);
  const [{ a }] = await h.warehouse.query(`SELECT count(*) AS a FROM (${fromParquet} EXCEPT ALL ${fromTable})`);
  const [{ b }] = await h.warehouse.query(`SELECT count(*) AS b FROM (${fromTable} EXCEPT ALL ${fromParquet})`);
  await h.warehouse.query(`SET memory_limit = '${h.warehouse.memoryLimit}'`);
  const [{ n }] = await h.warehouse.query(`SELECT count(*) AS n FROM "${table}"`);
  expect(Number(n), table).toBeGreaterThan(0);
  expect([Number(a), Number(b)], table).toEqual([0, 0]);
}

describe('Parquet export', () => {
  it('re-reads equal to the tables (hive partitions, exact HUGEINT, lists, JSON)', async () => {
    const r = await exportParquet(h.warehouse, allTables(), out);
    expect(r.files).toBeGreaterThan(0);
    for (const t of ['evm_blocks', 'evm_token_transfers', 'evm_erc20_balances', 'evm_native_balances', 'pn_utxos', '_glacier_snapshot_walks']) await assertSame(t);
    const [{ amount }] = await h.warehouse.query(`SELECT amount::VARCHAR AS amount FROM read_parquet('${join(out, 'pn_utxos', '**', '*.parquet')}') WHERE utxo_id = 'u1'`);
    expect(amount).toBe('123456789012345678901234567');
    // Besides Parquet, only the layout version at the root and each generation's marker (a leading '_' so hive readers skip them).
    const files = walk(out).filter((f) => f !== join(out, LAKE_VERSION_FILE) && !f.endsWith(`/${GENERATION_MARKER}`));
    expect(existsSync(join(out, LAKE_VERSION_FILE))).toBe(true);
    expect(files.every((f) => /\/(data|month|day-\d{4}-\d{2}-\d{2})\.parquet$/.test(f)), files.join('\n')).toBe(true);
    expect(files.some((f) => f.includes(join('evm_blocks', 'chain_id=43114', 'month=')))).toBe(true);
    expect(lstatSync(join(out, 'evm_blocks')).isSymbolicLink()).toBe(true);
    // Empty tables leave nothing behind.
    expect(existsSync(join(out, 'pn_vertices'))).toBe(false);
    expect(existsSync(join(out, '.tmp'))).toBe(false);
  });

  it('is incremental: unchanged partitions are not rewritten, changed ones are', async () => {
    const again = await exportParquet(h.warehouse, allTables(), out);
    expect(again.files).toBe(0);
    expect(again.unchanged).toBeGreaterThan(0);
    h.sim.advance(5);
    const [blocks] = await h.core.planPartitions({ streams: ['evm.blocks'] });
    await h.core.syncBatch({ partition: blocks, maxPages: 5, mode: 'sync', runId: 'later', snapshotAt: 1 });
    const after = await exportParquet(h.warehouse, allTables(), out);
    expect(after.files).toBeGreaterThanOrEqual(1);
    expect(after.files).toBeLessThan(again.unchanged);
    await assertSame('evm_blocks');
  });

  it('keeps hostile partition values inside the output directory', async () => {
    const blocks = tableByName('evm_blocks')!;
    await h.warehouse.commitBatch(
      [rowsToColumns(blocks, [{ chain_id: '../../escape', block_number: 1n, block_hash: '0x1', block_timestamp: 1_700_000_000n }])],
      { partitionId: 'test/escape', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: 1, pages: 1, complete: true },
    );
    await exportParquet(h.warehouse, allTables(), out, { tables: ['evm_blocks'] });
    expect(existsSync(join(h.dir, 'escape'))).toBe(false);
    expect(walk(out).some((f) => f.includes('chain_id=%2E%2E%2F%2E%2E%2Fescape'))).toBe(true);
    await assertSame('evm_blocks');
  });
});
