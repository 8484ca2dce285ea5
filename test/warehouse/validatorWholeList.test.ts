import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { drain, expectExact, startHarness, type Harness } from './harness.ts';

/**
 * pn.validators where the whole list is cheaper than the steps (a short list): a sync reads it whole,
 * and writes only what can have changed. The final validations it lists that the last walk stored
 * final are left out of the batch (their last_seen_at stays the run that last wrote them, as with the
 * steps); the warehouse equals ground truth after every sync, a walk resumed mid-list included.
 */
let h: Harness;
const NET = 'mainnet';

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small' },
    pageSize: null,
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[]; nodeIds: string[] }>)[NET];
      return { streams: ['pn.validators'], networks: [{ network: NET, chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 6), nodeIds: p.nodeIds.slice(0, 16) }] };
    },
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const count = async (sql: string) => Number((await h.warehouse.query(sql))[0].n);

describe('pn.validators: the whole list, only what can have changed written', () => {
  it('leaves out the final validations the last walk stored; exact after every sync, a resumed walk included', async () => {
    const partitions: PartitionSpec[] = await h.core.planPartitions({ streams: ['pn.validators'] });
    for (const p of partitions) await drain(h.core, p, { runId: 'b', mode: 'backfill', snapshotAt: 1 });
    await expectExact(h, partitions, 1);
    const backfill = (await streamCosts(h.warehouse, 'b')).find((c) => c.stream === 'pn.validators')!;
    const finalAtBackfill = await count("SELECT count(*) AS n FROM pn_validators WHERE validation_status NOT IN ('active', 'pending')");
    expect(finalAtBackfill).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      h.sim.advance(300);
      const runId = `s${i}`;
      const snapshotAt = 10 + i;
      // The first sync stops after one page and resumes in the same run (from its checkpoint's token).
      if (i === 0) for (const p of partitions) await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId, snapshotAt });
      for (const p of partitions) await drain(h.core, p, { runId, mode: 'sync', snapshotAt });
      await expectExact(h, partitions, snapshotAt);
      const cost = (await streamCosts(h.warehouse, runId)).find((c) => c.stream === 'pn.validators')!;
      // The whole list (as many pages as the backfill or more: the world grew), not the steps.
      expect(cost.pages).toBeGreaterThanOrEqual(backfill.pages);
      // Every open validation was written by this run; the final ones the backfill stored were not.
      expect(await count(`SELECT count(*) AS n FROM pn_validators WHERE validation_status IN ('active', 'pending') AND last_seen_at <> ${snapshotAt}`)).toBe(0);
      expect(await count("SELECT count(*) AS n FROM pn_validators WHERE validation_status NOT IN ('active', 'pending') AND last_seen_at = 1")).toBe(finalAtBackfill);
    }
  }, 300_000);
});
