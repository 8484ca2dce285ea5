import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataApiClient, endpoints } from '../../activities/api/index.ts';
import { startSimulator, type Simulator } from '../../tools/simulator/index.ts';

const KEYS = ['rate-test-key-4b1d', 'rate-test-key-88c2'];
const BUDGET = 1000; // CU per window per key on the simulator
const WINDOW_MS = 2000;
const WEIGHT = endpoints.evm.listLatestTransactions.weight;

interface Exchange {
  sentAt: number;
  receivedAt: number;
  status: number;
  key: string;
}

/** Runs 8 partitions walking transactions for `runMs`, recording every HTTP exchange on the wire. */
async function load(sim: Simulator, apiKeys: string[], runMs: number) {
  const exchanges: Exchange[] = [];
  // Every exchange on the wire, as undici reports it (diagnostics channels, published by fetch as by request).
  const sent = new WeakMap<object, { sentAt: number; key: string }>();
  const onCreate = (message: unknown) => {
    const { request } = message as { request: { headers: string | string[] } };
    const headers = Array.isArray(request.headers) ? request.headers.join('\n') : request.headers;
    sent.set(request, { sentAt: Date.now(), key: /x-service-api-key[:\n]\s*([^\r\n]+)/i.exec(headers)?.[1] ?? '' });
  };
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    const s = sent.get(request);
    if (s) exchanges.push({ ...s, receivedAt: Date.now(), status: response.statusCode });
  };
  diagnostics.subscribe('undici:request:create', onCreate);
  diagnostics.subscribe('undici:request:headers', onHeaders);
  // The client starts from the free tier's published budget (8,000 CU/min), far above the
  // simulator's; it has to learn the real one from headers and 429s.
  const client = createDataApiClient({ baseUrl: sim.baseUrl, apiKeys, tier: 'free', concurrency: 8, shareRateLimiter: false });
  const started = Date.now();
  const deadline = started + runMs;
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
    diagnostics.unsubscribe('undici:request:create', onCreate);
    diagnostics.unsubscribe('undici:request:headers', onHeaders);
  }
  return { exchanges, started, deadline };
}

/** Successful CU per server window (aligned to the clock), skipping warm-up and the last window. */
function steadyWindows(exchanges: Exchange[], started: number, deadline: number): number[] {
  const perWindow = new Map<number, number>();
  for (const e of exchanges) {
    if (e.status !== 200) continue;
    const window = Math.floor((e.sentAt + e.receivedAt) / 2 / WINDOW_MS);
    perWindow.set(window, (perWindow.get(window) ?? 0) + WEIGHT);
  }
  const out = [];
  for (let w = Math.floor(started / WINDOW_MS) + 2; w < Math.floor(deadline / WINDOW_MS) - 1; w++) out.push(perWindow.get(w) ?? 0);
  return out;
}

/** Requests sent after the first 429 on their key arrived that were rejected too. */
function rejectedAfterFirst429(exchanges: Exchange[], key: string): { after: number; rejected: number } {
  const mine = exchanges.filter((e) => e.key === key);
  const first = mine.filter((e) => e.status === 429).sort((a, b) => a.receivedAt - b.receivedAt)[0];
  const after = first ? mine.filter((e) => e.sentAt > first.receivedAt) : mine;
  return { after: after.length, rejected: after.filter((e) => e.status === 429).length };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function startLimited(budget: number, keys: string[]): Promise<Simulator> {
  return startSimulator({
    seed: 3,
    size: 'tiny',
    keys: keys.map((key) => ({ key, tier: 'free' as const })),
    rateLimits: { budgets: { free: { perMinute: budget, perDay: 1e9 } }, windowMs: WINDOW_MS },
  });
}

// The server itself never lets more than the budget through; what the client controls is whether it
// keeps sending into a spent window (429s after the first) and how much of the budget it uses.
describe('CU rate limiting against the simulator', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('after its first 429 never exceeds the budget, and settles within 10% of it', async () => {
    sim = await startLimited(BUDGET, [KEYS[0]]);
    const { exchanges, started, deadline } = await load(sim, [KEYS[0]], 24_000);
    const { after, rejected } = rejectedAfterFirst429(exchanges, KEYS[0]);
    expect(after).toBeGreaterThan(100);
    expect(rejected).toBe(0);
    const steady = steadyWindows(exchanges, started, deadline);
    console.log(`one key: ${exchanges.length} requests, 429s=${exchanges.filter((e) => e.status === 429).length}, CU per ${WINDOW_MS} ms window (budget ${BUDGET}): ${steady.join(' ')}`);
    expect(steady.length).toBeGreaterThanOrEqual(8);
    expect(mean(steady)).toBeGreaterThanOrEqual(0.9 * BUDGET);
    expect(mean(steady)).toBeLessThanOrEqual(BUDGET);
  });

  it('spreads the load over two keys: twice the budget, evenly, each key within its own', async () => {
    const perKey = BUDGET / 2;
    sim = await startLimited(perKey, KEYS);
    const { exchanges, started, deadline } = await load(sim, KEYS, 14_000);
    for (const key of KEYS) {
      expect(rejectedAfterFirst429(exchanges, key).rejected).toBe(0);
      const steady = steadyWindows(exchanges.filter((e) => e.key === key), started, deadline);
      expect(mean(steady)).toBeGreaterThanOrEqual(0.9 * perKey);
    }
    const total = steadyWindows(exchanges, started, deadline);
    console.log(`two keys: CU per window (budget 2 x ${perKey}): ${total.join(' ')}`);
    expect(mean(total)).toBeGreaterThanOrEqual(0.9 * 2 * perKey);
  });
});
