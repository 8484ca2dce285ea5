import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { drain, firstChainTxHashes, startHarness, type Harness } from './harness.ts';

/**
 * evm.transaction_details: details of mined transactions are final, so a sync asks only for hashes
 * no complete walk stored (none at all when the config did not change), an interrupted sync neither
 * loses nor skips one, and the warehouse equals ground truth after every run.
 */

let h: Harness;
let hashes: string[];
let base: PartitionSpec;

/** The planned partition over the first `n` hashes (the same partition id: the config gained hashes). */
const over = (n: number): PartitionSpec => ({ ...base, params: { ...base.params, txHashes: hashes.slice(0, n) } });
const requests = () => h.sim.stats().log.filter((e) => e.path.includes('/transactions/')).length;

const exact = async (p: PartitionSpec) => {
  for (const c of await compareWithTruth(h.sim, h.warehouse, [p], { snapshotAt: 1 })) {
    expect({ table: c.table, lost: c.lost, duplicated: c.duplicated, examples: c.examples }).toEqual({ table: c.table, lost: 0, duplicated: 0, examples: [] });
  }
  const [{ n }] = await h.warehouse.query('SELECT count(*) AS n FROM evm_transaction_details');
  expect(Number(n)).toBe((p.params.txHashes as string[]).length);
};

beforeAll(async () => {
  h = await startHarness({
    config: async (sim) => {
      const first = await firstChainTxHashes(sim, 20);
      const chainId = first.chainId;
      hashes = first.hashes;
      return { streams: ['evm.transaction_details'], evmChains: [{ chainId, transactions: hashes.slice(0, 8) }] };
    },
  });
  [base] = await h.core.planPartitions({});
});

afterAll(async () => {
  await h?.close();
});

describe('evm.transaction_details sync', () => {
  it('asks only for hashes no complete walk stored; an interrupted sync loses none; a backfill reads all again', async () => {
    let before = requests();
    await drain(h.core, over(8), { runId: 'b1', mode: 'backfill' });
    expect(requests() - before).toBe(8);
    await exact(over(8));

    // Same hashes, grown world: nothing to ask, the walk completes without a request and records a run of no pages.
    h.sim.advance(50);
    before = requests();
    await drain(h.core, over(8), { runId: 's1', mode: 'sync' });
    expect(requests() - before).toBe(0);
    const s1 = (await streamCosts(h.warehouse, 's1')).find((c) => c.stream === 'evm.transaction_details')!;
    expect({ walks: s1.walks, asked: s1.asked, pages: s1.pages, cu: s1.cu, optimumCu: s1.optimumCu }).toEqual({ walks: 1, asked: 0, pages: 0, cu: 0, optimumCu: 0 });
    expect((await h.core.readCheckpoint(base.id))!.complete).toBe(true);
    await exact(over(8));

    // Four hashes added to the config: four requests.
    before = requests();
    await drain(h.core, over(12), { runId: 's2', mode: 'sync' });
    expect(requests() - before).toBe(4);
    await exact(over(12));

    // Four more; the sync stops after one (a crash), the same run resumes: four requests in all.
    before = requests();
    const first = await h.core.syncBatch({ partition: over(16), maxPages: 1, mode: 'sync', runId: 's3', snapshotAt: 1 });
    expect(first.done).toBe(false);
    await drain(h.core, over(16), { runId: 's3', mode: 'sync' });
    expect(requests() - before).toBe(4);
    await exact(over(16));

    // Four more; the sync stops after two and is abandoned, a new run starts over from the last
    // complete walk: it reads the two again (upserts absorb them) and the two left, and skips none.
    before = requests();
    await h.core.syncBatch({ partition: over(20), maxPages: 2, mode: 'sync', runId: 's4', snapshotAt: 1 });
    await drain(h.core, over(20), { runId: 's5', mode: 'sync' });
    expect(requests() - before).toBe(2 + 4);
    await exact(over(20));
    before = requests();
    await drain(h.core, over(20), { runId: 's6', mode: 'sync' });
    expect(requests() - before).toBe(0);

    // A backfill reads every hash again.
    before = requests();
    await drain(h.core, over(20), { runId: 'b2', mode: 'backfill' });
    expect(requests() - before).toBe(20);
    await exact(over(20));
  }, 120_000);
});
