import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS, STREAM_NAMES } from '../../activities/streams/catalog.ts';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { drain, expectExact, firstChainId, startHarness, type Harness } from './harness.ts';

/**
 * evm.failed_transactions (the stream CONTRIBUTING.md's recipe was last followed for): the chain's
 * latest transactions with status=failed, into evm_transactions. After a backfill and after each
 * sync of a growing world, evm_transactions holds exactly the failed transactions the world has:
 * row for row what the list returns, and, counted against the whole chain's ground truth, every
 * failed transaction and nothing else.
 */

let h: Harness;
let chainId: string;
let partition: PartitionSpec;

/** Ground truth from the whole chain's list: the hashes of its failed transactions (txStatus "0"). */
async function failedInWorld(): Promise<string[]> {
  const all = (await h.sim.groundTruth('GET', `/v1/chains/${chainId}/transactions`, {})) as { txHash: string; txStatus: string }[];
  return all.filter((t) => t.txStatus !== '1').map((t) => t.txHash);
}

async function stored(): Promise<{ hashes: string[]; statuses: string[] }> {
  const rows = await h.warehouse.query('SELECT tx_hash, tx_status FROM evm_transactions WHERE chain_id = $1 ORDER BY tx_hash', [chainId]);
  return { hashes: rows.map((r) => String(r.tx_hash)), statuses: [...new Set(rows.map((r) => String(r.tx_status)))] };
}

async function expectFailedOnly(snapshotAt: number): Promise<number> {
  await expectExact(h, [partition], snapshotAt);
  const world = await failedInWorld();
  const have = await stored();
  expect(have.hashes).toEqual([...world].sort());
  expect(have.statuses).not.toContain('1');
  return world.length;
}

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small' },
    config: (sim) => {
      chainId = firstChainId(sim);
      return { streams: ['evm.failed_transactions'], evmChains: [{ chainId }] };
    },
  });
  [partition] = await h.core.planPartitions({});
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('evm.failed_transactions', () => {
  it('is opt-in: a config that names no streams does not run it', () => {
    expect(STREAM_NAMES).toContain('evm.failed_transactions');
    expect(DEFAULT_STREAMS).not.toContain('evm.failed_transactions');
    expect(partition.id).toBe(`evm.failed_transactions/${chainId}`);
  });

  it('a backfill stores every failed transaction of the chain and nothing else; a sync reads only what is new', async () => {
    await drain(h.core, partition, { runId: 'b1', mode: 'backfill', snapshotAt: 1 });
    const failed = await expectFailedOnly(1);
    expect(failed).toBeGreaterThan(1);
    const backfill = (await streamCosts(h.warehouse, 'b1')).find((c) => c.stream === 'evm.failed_transactions')!;

    // The world grows until new transactions fail; each sync stays exact and reads only the top pages.
    let grown = failed;
    for (let i = 0; i < 20 && grown === failed; i++) {
      h.sim.advance(100);
      await drain(h.core, partition, { runId: `s-${i}`, mode: 'sync', snapshotAt: 2 + i });
      grown = await expectFailedOnly(2 + i);
      const sync = (await streamCosts(h.warehouse, `s-${i}`)).find((c) => c.stream === 'evm.failed_transactions')!;
      expect(sync.pages).toBeLessThan(backfill.pages);
    }
    expect(grown).toBeGreaterThan(failed);
  }, 240_000);
});
