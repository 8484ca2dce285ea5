import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import { drain, startHarness, type Harness } from './harness.ts';

/** CU accounting: what the sync core records per run equals what the simulator charged, and the optimum follows the largest page. */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    config: (sim) => {
      const mainnet = (sim.world.describe().primary as { mainnet: { addresses: string[] } }).mainnet;
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[] };
      return { streams: ['pn.utxos', 'evm.blocks'], networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain'], addresses: mainnet.addresses.slice(0, 4) }], evmChains: [{ chainId: evm.chains[0].chainId }] };
    },
  });
});

afterAll(async () => {
  await h?.close();
});

describe('CU accounting', () => {
  it('records requests, CU and items per run; they match the simulator request log', async () => {
    const before = h.sim.stats().requests;
    const partitions = await h.core.planPartitions({ runId: 'c1', mode: 'backfill', snapshotAt: 1 });
    for (const p of partitions) await drain(h.core, p, { runId: 'c1', mode: 'backfill' });
    const log = h.sim.stats().log.slice(-(h.sim.stats().requests - before));
    const served = log.filter((e) => e.status < 300).reduce((n, e) => n + e.cu, 0);
    const costs = await streamCosts(h.warehouse, 'c1');
    expect(costs.reduce((n, c) => n + c.cu, 0)).toBe(served);
    const utxos = costs.find((c) => c.stream === 'pn.utxos')!;
    const blocks = costs.find((c) => c.stream === 'evm.blocks')!;
    expect(utxos.requests).toBe(log.filter((e) => e.method === 'POST').length);
    expect(utxos.cu).toBe(100 * utxos.requests);
    expect(utxos.items).toBe(Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_utxos'))[0].n));
    // The harness lowers every page to 25 items: the optimum is priced at the endpoint's largest page (1,024; blocks 100).
    expect(utxos.optimumCu).toBe(100 * utxos.walks);
    expect(blocks.items).toBe(300);
    expect(blocks.walkCu).toBe(10 * Math.ceil(300 / 25));
    expect(blocks.optimumCu).toBe(10 * 3);
    expect(costs.find((c) => c.stream === 'plan')).toBeUndefined();
  });
});
