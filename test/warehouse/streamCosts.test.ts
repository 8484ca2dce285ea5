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

describe('CU accounting of pages the server cuts short', () => {
  let full: Harness;
  beforeAll(async () => {
    // Largest pages (no page-size setting): primary-network transaction pages stop early at the server's UTXO volume.
    full = await startHarness({ pageSize: null, sim: { seed: 11, size: 'small' }, config: () => ({ streams: ['pn.transactions'], networks: [{ network: 'mainnet', chains: ['p-chain'] }] }) });
  });
  afterAll(async () => {
    await full?.close();
  });

  it('counts each cut page as one request of the optimum, and packs the other items into largest pages', async () => {
    for (const p of await full.core.planPartitions({})) await drain(full.core, p, { runId: 'cut', mode: 'backfill' });
    const runs = await full.warehouse.query("SELECT pages, items, cut_pages, cut_items FROM _glacier_sync_runs WHERE run_id = 'cut' AND stream = 'pn.transactions'");
    const cutPages = runs.reduce((n, r) => n + Number(r.cut_pages), 0);
    // The small world's chains hold transactions with many UTXOs: some pages must come back short with more to come.
    expect(cutPages).toBeGreaterThan(0);
    const expected = runs.reduce((n, r) => n + 100 * Math.max(1, Number(r.cut_pages) + Math.ceil((Number(r.items) - Number(r.cut_items)) / 100)), 0);
    const [cost] = (await streamCosts(full.warehouse, 'cut')).filter((c) => c.stream === 'pn.transactions');
    expect(cost.optimumCu).toBe(expected);
    // Asked at the largest page, the walk is at its optimum: every page is full, cut by the server, or the last.
    expect(cost.walkCu).toBe(cost.optimumCu);
    // Priced by its items alone, the walk would look dearer than its optimum: the difference is the server's cuts, not the walk's.
    const byItems = runs.reduce((n, r) => n + 100 * Math.max(1, Math.ceil(Number(r.items) / 100)), 0);
    expect(byItems).toBeLessThan(cost.walkCu);
  });
});
