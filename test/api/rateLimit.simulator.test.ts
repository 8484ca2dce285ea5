import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataApiClient, endpoints } from '../../activities/api/index.ts';
import { startSimulator, type Simulator } from '../../simulator/index.ts';

const KEY = 'rate-test-key-4b1d';
const BUDGET = 1000; // CU per window on the simulator
const WINDOW_MS = 2000;
const RUN_MS = 24_000;

interface Exchange {
  sentAt: number;
  receivedAt: number;
  status: number;
}

describe('CU rate limiting against the simulator', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, size: 'tiny', keys: [{ key: KEY, tier: 'free' }], rateLimits: { budgets: { free: { perMinute: BUDGET, perDay: 1e9 } }, windowMs: WINDOW_MS } });
  });
  afterAll(() => sim?.close());

  it('after its first 429 never exceeds the budget, and settles within 10% of it', async () => {
    // Every HTTP exchange, as seen on the wire.
    const exchanges: Exchange[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const sentAt = Date.now();
      const response = await realFetch(input, init);
      exchanges.push({ sentAt, receivedAt: Date.now(), status: response.status });
      return response;
    });
    // The client starts from the free tier's published budget (8,000 CU/min), far above the
    // simulator's; it has to learn the real one from headers and 429s.
    const client = createDataApiClient({ baseUrl: sim.baseUrl, apiKeys: [KEY], tier: 'free', concurrency: 8, shareRateLimiter: false });
    const started = Date.now();
    const deadline = started + RUN_MS;
    try {
      await Promise.all(
        Array.from({ length: 8 }, async (_, p) => {
          while (Date.now() < deadline) {
            for await (const _page of client.pages(endpoints.evm.listLatestTransactions, { chainId: '43114', pageSize: 10 }, { partition: `p${p}` })) {
              if (Date.now() >= deadline) break;
            }
          }
        }),
      );
    } finally {
      spy.mockRestore();
    }
    const weight = endpoints.evm.listLatestTransactions.weight;

    // 1. Nothing sent after the first 429 arrived is rejected: the client stays within the budget.
    const first429 = exchanges.filter((e) => e.status === 429).sort((a, b) => a.receivedAt - b.receivedAt)[0];
    const sentAfter = first429 ? exchanges.filter((e) => e.sentAt > first429.receivedAt) : exchanges;
    expect(sentAfter.length).toBeGreaterThan(100);
    expect(sentAfter.filter((e) => e.status === 429)).toHaveLength(0);

    // 2. Achieved CU per server window (aligned to the clock), skipping warm-up and the last window.
    const perWindow = new Map<number, number>();
    for (const e of exchanges) {
      if (e.status !== 200) continue;
      const window = Math.floor((e.sentAt + e.receivedAt) / 2 / WINDOW_MS);
      perWindow.set(window, (perWindow.get(window) ?? 0) + weight);
    }
    const firstFull = Math.floor(started / WINDOW_MS) + 2;
    const lastFull = Math.floor(deadline / WINDOW_MS) - 1;
    const steady = [];
    for (let w = firstFull; w < lastFull; w++) steady.push(perWindow.get(w) ?? 0);
    const mean = steady.reduce((a, b) => a + b, 0) / steady.length;
    console.log(`rate test: ${exchanges.length} requests, 429s=${exchanges.filter((e) => e.status === 429).length}, CU per ${WINDOW_MS} ms window (budget ${BUDGET}): ${steady.join(' ')}; mean ${mean.toFixed(0)}`);
    expect(steady.length).toBeGreaterThanOrEqual(8);
    for (const cu of steady) expect(cu).toBeLessThanOrEqual(BUDGET);
    expect(mean).toBeGreaterThanOrEqual(0.9 * BUDGET);
  });
});
