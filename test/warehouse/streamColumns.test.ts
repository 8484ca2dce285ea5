import { describe, expect, it } from 'vitest';
import type { Block } from '../../activities/api/schemas/index.ts';
import { defineTable, integer, ubigint, varchar } from '../../activities/streams/columns.ts';
import { STREAMS } from '../../activities/streams/catalog.ts';
import { evmBlocks } from '../../activities/streams/evmBlocks.ts';

/**
 * A stream is one declaration: each column names itself once and reads its value from the item.
 * A reader of the wrong type does not compile (checked by `tsc`, which runs the @ts-expect-error
 * lines below); a key, prune or partition column that is not declared fails when the module loads.
 */
describe('stream declarations', () => {
  it('a column reader of the wrong type is a compile error', () => {
    // @ts-expect-error an INTEGER column cannot read an object
    const wrong = integer<Block>('tx_count', (b) => ({ n: b.txCount }));
    // @ts-expect-error a column cannot read a field the item does not have
    const typo = ubigint<Block>('block_number', (b) => b.blockNumbr);
    expect([wrong.name, typo.name]).toEqual(['tx_count', 'block_number']);
  });

  it('a key or partition column that is not declared fails at definition, naming it', () => {
    const table = (primaryKey: string[]) =>
      defineTable<Block>({ name: 't', comment: 'c', columns: [varchar('chain_id', (b) => b.chainId)], primaryKey, merge: 'upsert', export: { partitionBy: ['chain_id'] } });
    expect(() => table(['chain_id', 'block_numbr'])).toThrow('table t: block_numbr named but not declared as columns');
    expect(() => defineTable<Block>({ name: 't', comment: 'c', columns: [varchar('a', (b) => b.chainId), varchar('a', (b) => b.blockHash)], primaryKey: ['a'], merge: 'upsert', export: { partitionBy: [] } })).toThrow(
      'declared twice',
    );
    // Every table has _extra after its columns: the fields no column maps (docs/drift.md).
    expect(table(['chain_id']).columns.map((c) => c.name)).toEqual(['chain_id', '_extra']);
  });

  it("a page's rows carry exactly its tables' columns, each value read once from the item", () => {
    const partition = { stream: 'evm.blocks' as const, id: 'evm.blocks/43114', chain: '43114', params: { chainId: '43114' } };
    const block = { blockHash: '0xb', blockNumber: '7', blockTimestamp: 1_700_000_000, baseFee: '1'.repeat(40), txCount: 3 } as Block;
    const { evm_blocks: rows } = evmBlocks.normalize({ items: [block] }, { partition, snapshotAt: 1, runId: 'r' });
    expect(Object.keys(rows[0])).toEqual(evmBlocks.tables[0].columns.map((c) => c.name));
    expect(rows[0]).toMatchObject({ chain_id: '43114', block_number: 7n, block_hash: '0xb', block_timestamp: 1_700_000_000n, tx_count: 3, base_fee: '1'.repeat(40), base_fee_num: null });
  });

  it('every stream of the catalog walks a declared endpoint and fills tables it lists once', () => {
    for (const stream of Object.values(STREAMS)) {
      expect(stream.walks.weight, stream.name).toBeGreaterThan(0);
      expect(new Set(stream.tables.map((t) => t.name)).size, stream.name).toBe(stream.tables.length);
    }
  });
});
