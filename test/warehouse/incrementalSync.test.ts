import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { drain, startHarness, type Harness } from './harness.ts';

/** descending-until-known and range semantics on a growing simulated chain. */

let h: Harness;
let chainId: string;
let blocks: PartitionSpec;
let addressTxs: PartitionSpec;

const count = async (sql: string, params: unknown[] = []) => Number((await h.warehouse.query(sql, params as never))[0].n);

beforeAll(async () => {
  h = await startHarness({
    config: (sim) => {
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[]; addresses: string[] };
      chainId = evm.chains[0].chainId;
      return { streams: ['evm.blocks', 'evm.address_transactions'], evmChains: [{ chainId, addresses: evm.addresses.slice(0, 1) }] };
    },
  });
  [blocks, addressTxs] = await h.core.planPartitions({});
});

afterAll(async () => {
  await h?.close();
});

describe('incremental sync', () => {
  it('a second sync fetches only the new pages, and an interrupted walk leaves no gap', async () => {
    const firstPages = await drain(h.core, blocks, { runId: 'r1' });
    const height = await count('SELECT count(*) AS n FROM evm_blocks');
    expect(height).toBe(300);
    expect(firstPages).toBe(Math.ceil(300 / 25));
    let cp = await h.core.readCheckpoint(blocks.id);
    expect(cp!.cursor.hwm).toBe(299);

    // Nothing new: one page, which already reaches below the high-water mark.
    expect(await drain(h.core, blocks, { runId: 'r2' })).toBe(1);

    // 60 new blocks = 3 pages; interrupt after the first: hwm must not move yet.
    h.sim.advance(60);
    const partial = await h.core.syncBatch({ partition: blocks, maxPages: 1, mode: 'sync', runId: 'r3', snapshotAt: 1 });
    expect(partial.done).toBe(false);
    cp = await h.core.readCheckpoint(blocks.id);
    expect(cp!.cursor.hwm).toBe(299);
    expect(cp!.cursor.walkTop).toBe(359);
    expect(cp!.complete).toBe(false);

    // The same run (or a new one) resumes from the page token and ends at the old mark.
    const rest = await drain(h.core, blocks, { runId: 'r3' });
    expect(rest).toBeLessThanOrEqual(3);
    cp = await h.core.readCheckpoint(blocks.id);
    expect(cp!.cursor.hwm).toBe(359);
    expect(await count('SELECT count(*) AS n FROM evm_blocks')).toBe(360);
    // No gap: block numbers are contiguous.
    expect(await count('SELECT max(block_number) - min(block_number) + 1 - count(*) AS n FROM evm_blocks')).toBe(0);

    // A retried batch of a finished run is a no-op.
    const again = await h.core.syncBatch({ partition: blocks, maxPages: 5, mode: 'sync', runId: 'r3', snapshotAt: 1 });
    expect(again).toMatchObject({ done: true, pages: 0 });
  });

  it('range: incremental runs start at the last committed end', async () => {
    await drain(h.core, addressTxs, { runId: 'a1' });
    const cp = await h.core.readCheckpoint(addressTxs.id);
    const next = cp!.cursor.next as number;
    const maxBlock = await count('SELECT max(block_number) AS n FROM evm_address_transactions');
    expect(next).toBe(maxBlock);
    const before = (await h.warehouse.query('SELECT count(*) AS n FROM evm_address_transactions'))[0].n;
    h.sim.advance(100);
    await drain(h.core, addressTxs, { runId: 'a2' });
    const after = await h.core.readCheckpoint(addressTxs.id);
    expect(after!.cursor.next as number).toBeGreaterThanOrEqual(next);
    expect(Number((await h.warehouse.query('SELECT count(*) AS n FROM evm_address_transactions'))[0].n)).toBeGreaterThanOrEqual(Number(before));
  });
});
