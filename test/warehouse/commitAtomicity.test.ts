import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { CommitStep } from '../../activities/warehouse/index.ts';
import { firstChainTxHashes, startHarness, type Harness } from './harness.ts';

/**
 * A batch aborted at every step of the commit leaves rows and checkpoint either both advanced or both
 * untouched, and the next batch carries on from wherever the durable checkpoint says.
 */

let h: Harness;
let partition: PartitionSpec;

class Crash extends Error {}

const state = async () => {
  const [{ n }] = await h.warehouse.query('SELECT count(*) AS n FROM evm_transaction_details');
  const [{ m }] = await h.warehouse.query('SELECT count(*) AS m FROM evm_internal_transactions');
  const cp = await h.core.readCheckpoint(partition.id);
  return { details: Number(n), internal: Number(m), pages: cp?.pages ?? 0, token: cp?.pageToken ?? null };
};

beforeAll(async () => {
  h = await startHarness({
    config: async (sim) => {
      const { chainId, hashes } = await firstChainTxHashes(sim, 12);
      return { streams: ['evm.transaction_details'], evmChains: [{ chainId, transactions: hashes }] };
    },
  });
  [partition] = await h.core.planPartitions({});
});

afterAll(async () => {
  await h?.close();
});

const STEPS: CommitStep[] = [
  'before-begin',
  'after-begin',
  'after-table:evm_transaction_details',
  'after-table:evm_internal_transactions',
  'before-checkpoint',
  'before-commit',
  'after-commit',
];

describe('commit atomicity', () => {
  it.each(STEPS)('abort at %s: rows and checkpoint move together', async (step) => {
    const before = await state();
    h.warehouse.faultHook = (s) => {
      if (s === step) throw new Crash(step);
    };
    await expect(h.core.syncBatch({ partition, maxPages: 1, mode: 'sync', runId: 'r', snapshotAt: 1 })).rejects.toBeInstanceOf(Crash);
    h.warehouse.faultHook = undefined;
    const after = await state();
    if (step === 'after-commit') {
      expect(after.pages).toBe(before.pages + 1);
      expect(after.details).toBe(before.details + 1);
    } else {
      expect(after).toEqual(before);
    }
    // The warehouse is usable after the abort, and the next batch continues from the durable checkpoint.
    const ok = await h.core.syncBatch({ partition, maxPages: 1, mode: 'sync', runId: 'r', snapshotAt: 1 });
    expect(ok.pages).toBe(1);
    const next = await state();
    expect(next.pages).toBe(after.pages + 1);
    expect(next.details).toBe(after.details + 1);
    expect(Number(next.token)).toBe(next.pages);
  });

  it('every configured transaction is stored exactly once after all the aborts', async () => {
    for (let i = 0; i < 20; i++) {
      const r = await h.core.syncBatch({ partition, maxPages: 5, mode: 'sync', runId: 'r', snapshotAt: 1 });
      if (r.done) break;
    }
    const cp = await h.core.readCheckpoint(partition.id);
    expect(cp!.complete).toBe(true);
    expect((await state()).details).toBe(12);
  });
});
