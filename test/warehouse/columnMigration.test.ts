import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableByName } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import { renderTable } from '../../activities/warehouse/renderDdl.ts';
import type { TableDef } from '../../activities/warehouse/tableDef.ts';

/**
 * A warehouse created before the ERC-1155 batch key, the Granite block fields and the holder
 * sortKey-as-balance: opening it with this version adds and converts the columns in place, fills the
 * new key column on stored rows, and then takes rows of the new shape.
 */

let dir: string;
let wh: Warehouse | undefined;

/** The table as it was released: without its added columns, retyped ones with their old type. */
function released(def: TableDef, oldTypes: Record<string, 'BIGINT'>): TableDef {
  return {
    ...def,
    primaryKey: def.primaryKey.filter((k) => !def.columns.find((c) => c.name === k)?.added || def.columns.find((c) => c.name === k)?.added?.retype),
    columns: def.columns.filter((c) => !c.added || c.added.retype).map((c) => ({ name: c.name, type: oldTypes[c.name] ?? c.type })),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-migration-'));
  const path = join(dir, 'old.duckdb');
  const instance = await DuckDBInstance.create(path);
  const c = await instance.connect();
  await c.run(renderTable(released(tableByName('evm_token_transfers')!, {})));
  await c.run(renderTable(released(tableByName('evm_blocks')!, {})));
  await c.run(renderTable(released(tableByName('metrics_holders')!, { sort_key: 'BIGINT' })));
  await c.run(`INSERT INTO evm_token_transfers (chain_id, contract_address, tx_hash, log_index, nft_token_id) VALUES ('43114', '0xc', '0xt1', 0, '7'), ('43114', '0xe', '0xt2', 1, NULL)`);
  await c.run(`INSERT INTO evm_blocks (chain_id, block_number) VALUES ('43114', 5)`);
  await c.run(`INSERT INTO metrics_holders (chain_id, contract_address, threshold, snapshot_at, address, sort_key) VALUES ('43114', '0xc', '0', 1, '0xa', 3)`);
  c.closeSync();
  instance.closeSync();
  wh = await openWarehouse(path);
});

afterAll(async () => {
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('columns added to released tables', () => {
  it('are added in place, the new key column filled on stored rows', async () => {
    const w = wh!;
    expect(await w.query('SELECT tx_hash, token_id FROM evm_token_transfers ORDER BY tx_hash')).toEqual([
      { tx_hash: '0xt1', token_id: '7' },
      { tx_hash: '0xt2', token_id: '' },
    ]);
    expect(await w.query('SELECT block_timestamp_ms, block_min_delay_excess FROM evm_blocks')).toEqual([{ block_timestamp_ms: null, block_min_delay_excess: null }]);
    const holders = await w.query("SELECT sort_key, sort_key_num::VARCHAR AS n, typeof(sort_key) AS t FROM metrics_holders");
    expect(holders).toEqual([{ sort_key: '3', n: '3', t: 'VARCHAR' }]);
  });

  it('take rows of the new shape: a batch of two token ids under one log index keeps both', async () => {
    const w = wh!;
    const def = tableByName('evm_token_transfers')!;
    const rows = ['1', '2'].map((id) => ({ chain_id: '43114', contract_address: '0xc', tx_hash: '0xt3', log_index: 0, block_number: 9n, nft_token_id: id, token_id: id }));
    await w.commitBatch([rowsToColumns(def, rows)], { partitionId: 'p', stream: 'evm.token_transfers', pageToken: null, cursor: {}, rows: 2, pages: 1, complete: true });
    expect(await w.query("SELECT token_id FROM evm_token_transfers WHERE tx_hash = '0xt3' ORDER BY 1")).toEqual([{ token_id: '1' }, { token_id: '2' }]);
  });
});
