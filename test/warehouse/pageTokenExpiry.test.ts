import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain, startHarness, type Harness } from './harness.ts';

/** An expired page token (400) restarts the walk from its durable cursor: no loss, no duplicates. */

let h: Harness;
let now = Date.UTC(2026, 10, 21);

beforeAll(async () => {
  h = await startHarness({
    sim: { clock: () => now, tokenTtlMs: 60_000 },
    config: (sim) => {
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[] };
      return { streams: ['evm.blocks'], evmChains: [{ chainId: evm.chains[0].chainId }] };
    },
  });
});

afterAll(async () => {
  await h?.close();
});

describe('page token expiry', () => {
  it('resumes after the token expired between batches', async () => {
    const [partition] = await h.core.planPartitions({});
    const first = await h.core.syncBatch({ partition, maxPages: 2, mode: 'backfill', runId: 'r', snapshotAt: 1 });
    expect(first.done).toBe(false);
    expect(first.checkpoint.pageToken).not.toBeNull();
    now += 3_600_000; // the stored token is now an hour old: expired
    await drain(h.core, partition, { runId: 'r', mode: 'backfill' });
    const [{ n, distinct }] = await h.warehouse.query('SELECT count(*) AS n, count(DISTINCT block_number) AS distinct FROM evm_blocks');
    expect(Number(n)).toBe(300);
    expect(Number(distinct)).toBe(300);
    const cp = await h.core.readCheckpoint(partition.id);
    expect(cp!.complete).toBe(true);
    expect(cp!.cursor.hwm).toBe(299);
  });
});
