import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evmErc20BalancesTable } from '../../activities/streams/evmErc20Balances.ts';
import { pnBalancesTable } from '../../activities/streams/pnBalances.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import type { Row, TableDef } from '../../activities/warehouse/tableDef.ts';
import type { StreamName } from '../../common/streamNames.ts';

/**
 * A warehouse written before snapshot walks were recorded: opening it seeds _glacier_snapshot_walks
 * from the snapshots it holds (those of finished walks), so the latest views keep their answers.
 */

const dir = mkdtempSync(join(tmpdir(), 'glacier-walks-migration-'));
const path = join(dir, 'w.duckdb');
let wh: Warehouse;

afterAll(async () => {
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A batch as the previous version committed it: rows and checkpoint, no walk record. */
async function commitOld(table: TableDef, stream: StreamName, partitionId: string, rows: Row[], snapshotAt: number, complete: boolean): Promise<void> {
  await wh.commitBatch([rowsToColumns(table, rows)], { partitionId, stream, pageToken: complete ? null : 't', cursor: { runId: `r${snapshotAt}`, snapshotAt }, rows: rows.length, pages: 1, complete });
}

describe('migrating a warehouse without snapshot walks', () => {
  it('seeds a walk per stored snapshot of a finished walk; the latest views read them', async () => {
    wh = await openWarehouse(path);
    const erc20 = (address: string, token: string, snapshotAt: number): Row => ({ chain_id: '43114', address, token_address: token, snapshot_at: BigInt(snapshotAt), balance: '5' });
    await commitOld(evmErc20BalancesTable, 'evm.erc20_balances', 'evm.erc20_balances/43114/0xa', [erc20('0xa', '0xt1', 100), erc20('0xa', '0xt2', 100)], 100, true);
    // A later walk of another address stopped half-way: its rows must not become latest.
    await commitOld(evmErc20BalancesTable, 'evm.erc20_balances', 'evm.erc20_balances/43114/0xb', [erc20('0xb', '0xt1', 100)], 100, true);
    await commitOld(evmErc20BalancesTable, 'evm.erc20_balances', 'evm.erc20_balances/43114/0xb', [erc20('0xb', '0xt9', 200)], 200, false);
    const set = 'avax1a,avax1b';
    await commitOld(pnBalancesTable, 'pn.balances', 'pn.balances/mainnet/c-chain/s', [{ network: 'mainnet', blockchain_id: 'c-chain', address_set: set, snapshot_at: 100n, kind: 'atomicMemoryUnlocked', item_index: 0, amount: 7n }], 100, true);
    // What an older version's warehouse looks like: no walks table, and the schema files before it.
    await wh.withWriter(async (c) => {
      await c.run('DROP TABLE _glacier_snapshot_walks');
      await c.run("DELETE FROM _glacier_schema_files WHERE file IN ('000_glacier.sql', '015_snapshot_walks_seed.sql', '020_views.sql')");
    });
    await wh.close();

    wh = await openWarehouse(path);
    const walks = await wh.query('SELECT stream, snapshot_at, params::VARCHAR AS params, rows FROM _glacier_snapshot_walks ORDER BY ALL');
    expect(walks.map((w) => [w.stream, Number(w.snapshot_at), JSON.parse(String(w.params)), Number(w.rows)])).toEqual([
      ['evm.erc20_balances', 100, { chainId: '43114', address: '0xa' }, 2],
      ['evm.erc20_balances', 100, { chainId: '43114', address: '0xb' }, 1],
      ['pn.balances', 100, { network: 'mainnet', blockchainId: 'c-chain', addresses: ['avax1a', 'avax1b'] }, 1],
    ]);
    const latest = await wh.query('SELECT address, token_address, snapshot_at FROM v_evm_erc20_balances_latest ORDER BY ALL');
    expect(latest.map((r) => `${r.address} ${r.token_address} ${r.snapshot_at}`)).toEqual(['0xa 0xt1 100', '0xa 0xt2 100', '0xb 0xt1 100']);
    expect((await wh.query('SELECT amount FROM v_pn_balances_latest')).map((r) => Number(r.amount))).toEqual([7]);

    // Opening again seeds nothing twice.
    await wh.close();
    wh = await openWarehouse(path);
    expect(Number((await wh.query('SELECT count(*) AS n FROM _glacier_snapshot_walks'))[0].n)).toBe(3);
  });
});
