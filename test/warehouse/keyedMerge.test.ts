import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableByName } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import type { Row, TableDef } from '../../activities/warehouse/tableDef.ts';
import { keyUniquenessFinding } from '../../activities/verify/keyUniqueness.ts';

/**
 * Stream tables keep their key without an index: each commit deletes the batch's keys and inserts the
 * batch. A key sent again replaces its row (with or without the prune column), and a warehouse made
 * by an earlier version, with PRIMARY KEY constraints, still merges with DuckDB's upsert.
 */

const txs = tableByName('evm_transactions')!;
const tx = (hash: string, block: bigint | null, status = 'success'): Row => ({ chain_id: '43114', tx_hash: hash, block_number: block, tx_status: status });
let seq = 0;
const commit = (wh: Warehouse, def: TableDef, rows: Row[]) =>
  wh.commitBatch([rowsToColumns(def, rows)], { partitionId: 'p', stream: 'evm.transactions', pageToken: null, cursor: {}, rows: ++seq, pages: seq, complete: false });
const stored = async (wh: Warehouse) => (await wh.query('SELECT tx_hash, block_number, tx_status FROM evm_transactions ORDER BY tx_hash')).map((r) => `${r.tx_hash}@${r.block_number}:${r.tx_status}`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-merge-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keyed merge without an index', () => {
  it('replaces a key sent again, also when its prune column is NULL, and never duplicates it', async () => {
    expect(txs.pruneBy).toBe('block_number');
    const wh = await openWarehouse(join(dir, 'new.duckdb'));
    try {
      await commit(wh, txs, [tx('0xa', 1n, 'pending'), tx('0xb', 2n), tx('0xn', null, 'first')]);
      await commit(wh, txs, [tx('0xa', 1n), tx('0xc', 3n)]);
      await commit(wh, txs, [tx('0xn', null, 'second'), tx('0xb', 2n, 'again')]);
      expect(await stored(wh)).toEqual(['0xa@1:success', '0xb@2:again', '0xc@3:success', '0xn@null:second']);
      expect(await keyUniquenessFinding(wh, [txs])).toMatchObject({ ok: true });
      // A row written past the merge (by hand) is what verify reports.
      await wh.withWriter((w) => w.run("INSERT INTO evm_transactions (chain_id, tx_hash, block_number) VALUES ('43114', '0xa', 1)"));
      expect(await keyUniquenessFinding(wh, [txs, tableByName('evm_blocks')!])).toEqual({ check: 'tables: every key is stored once', ok: false, detail: 'repeated keys in evm_transactions (1 rows)' });
    } finally {
      await wh.close();
    }
  });

  it('a warehouse with PRIMARY KEY constraints (earlier versions) keeps merging with DuckDB upserts', async () => {
    const path = join(dir, 'old.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const cols = txs.columns.map((c) => `"${c.name}" ${c.type}`).join(', ');
    await connection.run(`CREATE TABLE evm_transactions (${cols}, PRIMARY KEY (chain_id, tx_hash))`);
    connection.closeSync();
    instance.closeSync();
    const wh = await openWarehouse(path);
    try {
      await commit(wh, txs, [tx('0xa', 1n, 'pending'), tx('0xb', 2n)]);
      await commit(wh, txs, [tx('0xa', 1n)]);
      expect(await stored(wh)).toEqual(['0xa@1:success', '0xb@2:success']);
      expect(await wh.query("SELECT 1 FROM duckdb_constraints() WHERE table_name = 'evm_transactions' AND constraint_type = 'PRIMARY KEY'")).toHaveLength(1);
    } finally {
      await wh.close();
    }
  });

  it('a row sent again with the same values is not rewritten once the lake reads changes (a new warehouse\'s first backfill prunes nothing); a touch column is set in place', async () => {
    const wh = await openWarehouse(join(dir, 'unchanged.duckdb'));
    // DuckDB gives an inserted row a new rowid: a row deleted and inserted again shows it.
    const rowids = async () => Object.fromEntries((await wh.query('SELECT tx_hash, rowid AS r FROM evm_transactions')).map((r) => [r.tx_hash, String(r.r)]));
    try {
      await commit(wh, txs, [tx('0xa', 1n), tx('0xb', 2n, 'pending')]);
      const fresh = await rowids();
      await commit(wh, txs, [tx('0xa', 1n), tx('0xb', 2n, 'pending')]);
      expect((await rowids())['0xa']).not.toBe(fresh['0xa']);
      await wh.startChangeMarks();
      const before = await rowids();
      await commit(wh, txs, [tx('0xa', 1n), tx('0xb', 2n, 'success'), tx('0xc', 3n)]);
      const after = await rowids();
      expect(after['0xa']).toBe(before['0xa']);
      expect(after['0xb']).not.toBe(before['0xb']);
      expect(await stored(wh)).toEqual(['0xa@1:success', '0xb@2:success', '0xc@3:success']);

      const validators = tableByName('pn_validators')!;
      expect(validators.touch).toEqual(['last_seen_at']);
      const v = (node: string, status: string, seen: bigint): Row => ({ network: 'mainnet', node_id: node, tx_hash: `0x${node}`, validation_status: status, last_seen_at: seen });
      const seen = async () => (await wh.query('SELECT node_id, validation_status, last_seen_at, rowid AS r FROM pn_validators ORDER BY node_id')).map((r) => `${r.node_id}:${r.validation_status}@${r.last_seen_at}#${r.r}`);
      await commit(wh, validators, [v('n1', 'active', 100n), v('n2', 'active', 100n)]);
      const first = await seen();
      await commit(wh, validators, [v('n1', 'active', 200n), v('n2', 'completed', 200n)]);
      const second = await seen();
      // n1: only last_seen_at moved, in place (same rowid); n2 changed: its row was replaced.
      expect(second[0]).toBe(first[0].replace('@100', '@200'));
      expect(second[1].startsWith('n2:completed@200#')).toBe(true);
      expect(second[1]).not.toBe(first[1].replace('active@100', 'completed@200'));
      expect(await keyUniquenessFinding(wh, [txs, validators])).toMatchObject({ ok: true });
    } finally {
      await wh.close();
    }
  });
});
