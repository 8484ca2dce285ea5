import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { expectExact, runWaves, startHarness, truth, type Harness } from './harness.ts';

/**
 * pn.rewards in a sync that also walks the P-chain's transactions chain-wide
 * (activities/streams/rewardSkip.ts): a reward partition asks the list only when a reward the
 * transaction walk stored is missing from pn_rewards, and pn_rewards equals the list row for row
 * after every run, whether the sync asked or not.
 */

let h: Harness;
let addresses: string[] = [];
let nodeIds: string[] = [];

const rewardRequests = () => h.sim.stats().log.filter((e) => e.method === 'GET' && /\/networks\/mainnet\/rewards$/.test(e.path));

/** Rewards the list holds now for the address set and the node set (ground truth). */
async function listed(): Promise<{ addresses: number; nodes: number }> {
  const path = '/v1/networks/mainnet/rewards';
  return {
    addresses: (await truth(h.sim, path, { addresses: addresses.join(',') })).length,
    nodes: (await truth(h.sim, path, { nodeIds: nodeIds.join(',') })).length,
  };
}

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small' },
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[]; nodeIds: string[] }>).mainnet;
      addresses = p.addresses.slice(0, 6);
      nodeIds = p.nodeIds.slice(0, 3);
      // Every chain: an export's emitted copy learns its spend only from the importing chain's walk.
      return { streams: ['pn.transactions', 'pn.rewards'], networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses, nodeIds, rewardsForDiscoveredValidators: false }] };
    },
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('pn.rewards beside the P-chain transaction walk', () => {
  let all: PartitionSpec[] = [];

  it('a sync asks a partition only when a reward was paid to it, and stays exact either way', async () => {
    const { waves } = await runWaves(h, 'backfill', 'b', 1);
    all = waves.flat();
    const rewards = all.filter((p) => p.stream === 'pn.rewards');
    expect(rewards.map((p) => Object.keys(p.params).filter((k) => k === 'addresses' || k === 'nodeIds')).flat().sort()).toEqual(['addresses', 'nodeIds']);
    await expectExact(h, all, 1);

    let skipped = 0;
    let walked = 0;
    let before = await listed();
    for (let i = 0; i < 8; i++) {
      // Small and large growth: some syncs see no reward paid to either set, some see rewards to both.
      h.sim.advance(i % 2 === 0 ? 2 : 150);
      const after = await listed();
      const mark = rewardRequests().length;
      const { waves: w } = await runWaves(h, 'sync', `s-${i}`, 10 + i);
      // In a sync the reward partitions come after the transaction walk.
      expect(w[0].some((p) => p.stream === 'pn.rewards')).toBe(false);
      expect(w[1].filter((p) => p.stream === 'pn.rewards').length).toBe(2);
      const asked = rewardRequests().slice(mark);
      const askedAddresses = asked.some((e) => e.query.includes('addresses='));
      const askedNodes = asked.some((e) => e.query.includes('nodeIds='));
      // Exactly the partitions whose list grew ask it.
      expect({ i, askedAddresses, askedNodes }).toEqual({ i, askedAddresses: after.addresses !== before.addresses, askedNodes: after.nodes !== before.nodes });
      skipped += Number(!askedAddresses) + Number(!askedNodes);
      walked += Number(askedAddresses) + Number(askedNodes);
      await expectExact(h, all, 10 + i);
      before = after;
    }
    // The world paid rewards to the sets in some syncs and not in others: both paths ran.
    expect(skipped).toBeGreaterThan(0);
    expect(walked).toBeGreaterThan(0);
  }, 300_000);

  it('a sync whose transaction walk did not complete in this run walks every reward partition', async () => {
    h.sim.advance(2);
    const mark = rewardRequests().length;
    // The derived wave alone: this run never walked the P-chain's transactions.
    const derived = await h.core.planPartitions({ discovered: true, mode: 'sync', runId: 'no-tx-walk', snapshotAt: 40 });
    const rewards = derived.filter((p) => p.stream === 'pn.rewards');
    expect(rewards.length).toBe(2);
    expect(rewards.every((p) => p.params.rewardsComplete === false)).toBe(true);
    for (const p of rewards) {
      for (let n = 0; n < 100 && !(await h.core.syncBatch({ partition: p, maxPages: 4, mode: 'sync', runId: 'no-tx-walk', snapshotAt: 40 })).done; n++);
    }
    expect(rewardRequests().length - mark).toBeGreaterThanOrEqual(2);
  });

  it('a reward row lost from the warehouse makes the next sync walk that partition', async () => {
    // Remove the newest reward of the address set: the transactions still show it paid.
    const [newest] = await h.warehouse.query(
      `SELECT utxo_id FROM pn_rewards WHERE list_has_any(addresses, string_split(?, ',')) ORDER BY end_timestamp DESC, utxo_id LIMIT 1`,
      [addresses.map((a) => a.replace(/^[A-Za-z]-/, '')).join(',')],
    );
    expect(newest).toBeDefined();
    await h.warehouse.withWriter((c) => c.run(`DELETE FROM pn_rewards WHERE utxo_id = '${String(newest.utxo_id)}'`));
    const { waves } = await runWaves(h, 'sync', 'after-loss', 50);
    const address = waves[1].find((p) => p.stream === 'pn.rewards' && p.params.addresses !== undefined)!;
    expect(address.params.rewardsComplete).toBe(false);
  });
});
