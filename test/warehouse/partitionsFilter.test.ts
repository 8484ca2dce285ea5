import { describe, expect, it } from 'vitest';
import { tableByName } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns } from '../../activities/warehouse/index.ts';
import { partitionsFilter } from '../../activities/warehouse/lakeKeys.ts';
import { changedKeyUniquenessFinding } from '../../activities/verify/keyUniqueness.ts';

/** The nightly checks read several changed partitions of a table with one filter: exactly their rows. */
describe('partitionsFilter', () => {
  it('selects the rows of the named partitions and no others, and the nightly key check reads them in one query', async () => {
    const wh = await openWarehouse(':memory:');
    try {
      const blocks = tableByName('evm_blocks')!;
      const day = (d: number) => BigInt(Date.parse(`2026-01-${String(d).padStart(2, '0')}T12:00:00Z`) / 1000);
      const rows = [1, 2, 3, 4, 5].flatMap((d) => ['43114', '173'].map((chain, i) => ({ chain_id: chain, block_number: BigInt(d * 10 + i), block_hash: `0x${d}${i}`, block_timestamp: day(d) })));
      await wh.commitBatch([rowsToColumns(blocks, rows)], { partitionId: 'p', stream: 'evm.blocks', pageToken: null, cursor: {}, rows: rows.length, pages: 1, complete: true });
      const parts = [
        ['43114', '2026-01-02'],
        ['173', '2026-01-04'],
      ];
      const { where, params } = partitionsFilter(blocks, parts);
      const got = await wh.query(`SELECT chain_id, block_number FROM evm_blocks WHERE ${where} ORDER BY block_number`, params);
      expect(got.map((r) => `${r.chain_id}:${r.block_number}`)).toEqual(['43114:20', '173:41']);
      expect(partitionsFilter(blocks, []).where).toBe('false');

      // A key stored twice inside one of the changed partitions is found; one outside them is not read.
      await wh.withWriter((c) => c.run("INSERT INTO evm_blocks (chain_id, block_number, block_hash, block_timestamp) VALUES ('173', 41, '0xdup', $1), ('43114', 50, '0xdup', $2)", [day(4), day(5)]));
      const changed = [
        { table: 'evm_blocks', key: JSON.stringify(parts[0]) },
        { table: 'evm_blocks', key: JSON.stringify(parts[1]) },
      ];
      const finding = await changedKeyUniquenessFinding(wh, [blocks], changed);
      expect(finding).toMatchObject({ ok: false, detail: 'repeated keys in evm_blocks (1 rows)' });
    } finally {
      await wh.close();
    }
  });
});
