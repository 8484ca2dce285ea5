import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableByName } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import type { Row } from '../../activities/warehouse/tableDef.ts';

/**
 * Commits mark the lake partitions they change only once an export or a verify has read the
 * warehouse (Warehouse.startChangeMarks): a new file's first backfill writes no marks, and the
 * setting outlives the process. A file from before the setting marks.
 */

const txs = tableByName('evm_transactions')!;
let seq = 0;
const commit = (wh: Warehouse, hash: string) =>
  wh.commitBatch([rowsToColumns(txs, [{ chain_id: '43114', tx_hash: hash, block_number: BigInt(++seq), block_timestamp: 1_700_000_000n + BigInt(seq) * 86_400n } as Row])], {
    partitionId: 'p',
    stream: 'evm.transactions',
    pageToken: null,
    cursor: {},
    rows: seq,
    pages: seq,
    complete: false,
  });
const marked = async (wh: Warehouse) => Number((await wh.query("SELECT count(*) AS n FROM _glacier_changed_partitions WHERE table_name = 'evm_transactions'"))[0].n);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-marks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('change marks', () => {
  it('a new warehouse marks nothing until they start, then every commit marks, also after the file is opened again', async () => {
    const path = join(dir, 'new.duckdb');
    let wh = await openWarehouse(path);
    try {
      await commit(wh, '0xa');
      await commit(wh, '0xb');
      expect(await marked(wh)).toBe(0);
      await wh.startChangeMarks();
      await commit(wh, '0xc');
      expect(await marked(wh)).toBe(1);
    } finally {
      await wh.close();
    }
    wh = await openWarehouse(path);
    try {
      await commit(wh, '0xd');
      expect(await marked(wh)).toBe(2);
    } finally {
      await wh.close();
    }
  });

  it('a warehouse written before the setting marks every commit', async () => {
    const path = join(dir, 'older.duckdb');
    let wh = await openWarehouse(path);
    await wh.withWriter((w) => w.run("DELETE FROM _glacier_meta WHERE key = 'change_marks'"));
    await wh.close();
    wh = await openWarehouse(path);
    try {
      await commit(wh, '0xe');
      expect(await marked(wh)).toBe(1);
    } finally {
      await wh.close();
    }
  });
});
