import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { getJson } from './simHttp.ts';

/** Keys and CU budgets: small budgets and an injected clock make windows observable. */

const MINUTE = 60_000;
// 10 s into a minute and 1 h into a UTC day.
let now = Date.UTC(2026, 2, 3, 1, 0, 10);
let sim: Simulator;
const FREE = { 'x-service-api-key': 'free-1' };

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    size: 'tiny',
    keys: [{ key: 'free-1', tier: 'free' }, { key: 'pro-1', tier: 'pro' }, { key: 'daily', tier: 'base' }, { key: 'gone', tier: 'growth', revoked: true }],
    rateLimits: {
      budgets: { free: { perMinute: 50, perDay: 10_000 }, none: { perMinute: 20, perDay: 10_000 }, base: { perMinute: 1000, perDay: 30 } },
      metricsBudget: { perMinute: 200, perDay: 100_000 },
    },
    clock: () => now,
  });
});
afterAll(async () => {
  await sim.close();
});

describe('authentication', () => {
  it('401 for an unknown key, 403 for a revoked key, keyless and valid keys pass', async () => {
    const unknown = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const revoked = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'gone' });
    expect(revoked.status).toBe(403);
    expect(revoked.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'pro-1' })).status).toBe(200);
  });

  it('the metrics service takes no key: even an unknown key header is ignored', async () => {
    const c20 = sim.world.describe().evm.contracts[0].address;
    const res = await getJson(`${sim.metricsUrl}/v2/chains/43114/contracts/${c20}/balances?threshold=0`, { 'x-service-api-key': 'nope' });
    expect(res.status).toBe(200);
  });
});

describe('CU rate limits', () => {
  it('charges endpoint weights in a clock-aligned minute window, then 429 with retry-after until the window ends', async () => {
    now = Math.floor(now / MINUTE) * MINUTE + MINUTE + 10_000; // a fresh window, 50 s before its end
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, FREE);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('50;w=60');
      expect(res.headers.get('ratelimit-limit')).toBe('50');
      remaining.push(res.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['40', '30', '20', '10', '0']);
    const limited = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, FREE);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(limited.headers.get('ratelimit-reset')).toBe('50');
    // Another key has its own budget.
    expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'pro-1' })).status).toBe(200);
    now += 50_000;
    const next = await getJson(`${sim.baseUrl}/v1/chains/43114/transactions`, FREE);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('30'); // EVM transactions weigh 20 CU
  });

  it('limits keyless clients by IP with the none tier', async () => {
    now = Math.floor(now / MINUTE) * MINUTE + MINUTE;
    expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`)).status).toBe(200);
    expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`)).status).toBe(200);
    const res = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBe(60);
  });

  it('answers 429 until the day resets once the daily budget is spent', async () => {
    now = Date.UTC(2026, 2, 4, 23, 0, 0);
    for (let i = 0; i < 3; i++) expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'daily' })).status).toBe(200);
    now += 2 * MINUTE; // a new minute does not help
    const res = await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'daily' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBe(58 * 60);
    now = Date.UTC(2026, 2, 5, 0, 0, 1);
    expect((await getJson(`${sim.baseUrl}/v1/chains/43114/blocks`, { 'x-service-api-key': 'daily' })).status).toBe(200);
  });

  it('holder metrics weigh 100 CU of the metrics budget', async () => {
    now = Math.floor(now / MINUTE) * MINUTE + MINUTE;
    const c20 = sim.world.describe().evm.contracts[0].address;
    const url = `${sim.metricsUrl}/v2/chains/43114/contracts/${c20}/balances?threshold=0`;
    const first = await getJson(url);
    expect(first.headers.get('ratelimit-remaining')).toBe('100');
    expect((await getJson(url)).status).toBe(200);
    expect((await getJson(url)).status).toBe(429);
  });

  it('records CU and statuses in stats', () => {
    const stats = sim.stats();
    expect(stats.byStatus[429]).toBeGreaterThanOrEqual(4);
    expect(stats.log.some((e) => e.cu === 20 && e.path === '/v1/chains/43114/transactions')).toBe(true);
  });
});

describe('rate limits off', () => {
  it('sends no rate-limit headers and never 429s by default', async () => {
    const open = await startSimulator({ size: 'tiny' });
    try {
      for (let i = 0; i < 20; i++) {
        const res = await getJson(`${open.baseUrl}/v1/chains/43114/blocks`);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await open.close();
    }
  });
});
