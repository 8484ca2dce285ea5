import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { drain, expectExact, startHarness, type Harness } from './harness.ts';

/**
 * snapshot-merge streams that walk only what changed: after each sync of a growing world the
 * warehouse equals ground truth, and the sync costs less than the backfill did.
 */

let h: Harness;
const NET = 'mainnet';

const runAll = async (partitions: PartitionSpec[], runId: string, mode: 'backfill' | 'sync', snapshotAt: number) => {
  for (const p of partitions) await drain(h.core, p, { runId, mode, snapshotAt });
};

const exact = async (partitions: PartitionSpec[], snapshotAt: number) => {
  for (const c of await expectExact(h, partitions, snapshotAt)) expect(c.expected, c.table).toBeGreaterThan(0);
};

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small' },
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[]; nodeIds: string[] }>)[NET];
      return { streams: ['pn.rewards', 'pn.utxos', 'pn.validators'], networks: [{ network: NET, chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 6), nodeIds: p.nodeIds.slice(0, 16) }] };
    },
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('incremental snapshot-merge walks', () => {
  it('pn.rewards: newest first until the last walk\'s newest reward; exact after every sync', async () => {
    const partitions = await h.core.planPartitions({ streams: ['pn.rewards'] });
    await runAll(partitions, 'b1', 'backfill', 1);
    await exact(partitions, 1);
    const backfill = (await streamCosts(h.warehouse, 'b1')).find((c) => c.stream === 'pn.rewards')!;
    const before = Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_rewards'))[0].n);
    expect(backfill.pages).toBeGreaterThan(2 * partitions.length);

    // Nothing new: one page per partition.
    await runAll(partitions, 's1', 'sync', 2);
    expect((await streamCosts(h.warehouse, 's1')).find((c) => c.stream === 'pn.rewards')!.pages).toBe(partitions.length);
    await exact(partitions, 2);

    // The world grows until new rewards are paid; each sync stays exact and reads only the top pages.
    let grown = before;
    for (let i = 0; i < 20 && grown === before; i++) {
      h.sim.advance(200);
      await runAll(partitions, `s2-${i}`, 'sync', 3 + i);
      await exact(partitions, 3 + i);
      grown = Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_rewards'))[0].n);
      const cost = (await streamCosts(h.warehouse, `s2-${i}`)).find((c) => c.stream === 'pn.rewards')!;
      expect(cost.pages).toBeLessThan(backfill.pages);
    }
    expect(grown).toBeGreaterThan(before);
  }, 300_000);

  it('pn.utxos: new UTXOs newest first until known, spends of old ones from the address transactions; exact after every sync', async () => {
    const partitions = await h.core.planPartitions({ streams: ['pn.utxos'] });
    await runAll(partitions, 'u1', 'backfill', 1);
    await exact(partitions, 1);
    const backfill = (await streamCosts(h.warehouse, 'u1')).find((c) => c.stream === 'pn.utxos')!;
    expect(backfill.pages).toBeGreaterThan(partitions.length);
    await h.warehouse.withWriter((c) => c.run('CREATE TABLE unspent_at_backfill AS SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NULL'));
    const oldSpent = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_utxos JOIN unspent_at_backfill USING (utxo_id) WHERE consuming_tx_hash IS NOT NULL'))[0].n);
    let spent = 0;
    for (let i = 0; i < 10 && spent === 0; i++) {
      h.sim.advance(100);
      await runAll(partitions, `u2-${i}`, 'sync', 10 + i);
      await exact(partitions, 10 + i);
      spent = await oldSpent();
      const cost = (await streamCosts(h.warehouse, `u2-${i}`)).find((c) => c.stream === 'pn.utxos')!;
      // Step 1 stops at the known UTXO, step 2 reads the new transactions: a few pages per partition
      // (how many depends on how many short transaction pages the growth made), far below a re-walk.
      expect(cost.pages).toBeLessThanOrEqual(6 * partitions.length);
      expect(cost.pages * 4).toBeLessThan(backfill.pages);
    }
    // UTXOs unspent at the backfill were spent later, and the syncs caught it.
    expect(spent).toBeGreaterThan(0);
  }, 300_000);

  it('pn.validators: every active one, the open ones that changed (by node id), and the new ones newest first; exact after every sync', async () => {
    const partitions = await h.core.planPartitions({ streams: ['pn.validators'] });
    await runAll(partitions, 'v1', 'backfill', 1);
    await exact(partitions, 1);
    const backfill = (await streamCosts(h.warehouse, 'v1')).find((c) => c.stream === 'pn.validators')!;
    await h.warehouse.withWriter((c) => c.run("CREATE TABLE open_at_backfill AS SELECT tx_hash FROM pn_validators WHERE validation_status IN ('active', 'pending')"));
    const closed = async () => Number((await h.warehouse.query("SELECT count(*) AS n FROM pn_validators JOIN open_at_backfill USING (tx_hash) WHERE validation_status NOT IN ('active', 'pending')"))[0].n);
    const total = Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_validators'))[0].n);
    let changed = 0;
    for (let i = 0; i < 10 && changed === 0; i++) {
      h.sim.advance(300);
      // The first sync stops after a page (a crash) and is abandoned: the next run walks from the last complete walk's marks.
      if (i === 0) for (const p of partitions) await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: 'v-crash', snapshotAt: 19 });
      await runAll(partitions, `v2-${i}`, 'sync', 20 + i);
      await exact(partitions, 20 + i);
      changed = await closed();
      // The steps, not the whole list: active pages, the lookups, the new validations' top page.
      const cost = (await streamCosts(h.warehouse, `v2-${i}`)).find((c) => c.stream === 'pn.validators')!;
      expect(cost.pages).toBeLessThan(backfill.pages);
    }
    // Validations open at the backfill closed later, and the syncs caught it.
    expect(changed).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(0);
  }, 300_000);
});
