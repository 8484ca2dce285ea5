import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPageTokenError } from '../../activities/api/errors.ts';
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

describe('page token rejected again at the same position (real simulator)', () => {
  let always: Harness;
  // Every read of the clock is two minutes later than the last: each token has expired (TTL one
  // minute) by the time it comes back, so the walk is rejected at its second page every time.
  let t = Date.UTC(2026, 10, 21);
  beforeAll(async () => {
    always = await startHarness({
      sim: { clock: () => (t += 120_000), tokenTtlMs: 60_000 },
      config: (sim) => {
        const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[] };
        return { streams: ['evm.blocks'], evmChains: [{ chainId: evm.chains[0].chainId }] };
      },
    });
  });
  afterAll(async () => {
    await always?.close();
  });

  it('restarts once, then fails with the non-retryable InvalidPageTokenError instead of looping', async () => {
    const [partition] = await always.core.planPartitions({});
    const error = await always.core.syncBatch({ partition, maxPages: 100, mode: 'backfill', runId: 'r', snapshotAt: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPageTokenError);
    expect((error as InvalidPageTokenError).serverMessage).toBe('Page token expired');
    // The first page (no token) was stored, once, by each of the two walks.
    const [{ n, distinct }] = await always.warehouse.query('SELECT count(*) AS n, count(DISTINCT block_number) AS distinct FROM evm_blocks');
    expect(Number(n)).toBe(25);
    expect(Number(distinct)).toBe(25);
    const cp = await always.core.readCheckpoint(partition.id);
    expect(cp!.complete).toBe(false);
    expect(cp!.cursor).toMatchObject({ page: 1, staleAt: 1 });
  });
});
