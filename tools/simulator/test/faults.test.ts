import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { RouteDef, Simulator } from '../index.ts';
import { pageSize } from '../http/params.ts';
import { getJson, walk, withQuery } from './simHttp.ts';

/** Every fault kind is observable, and a retry after a fault gets the correct answer. */

/** A list of 0..99 that honours the shortPage hook, as primary-network transactions do. */
const shortRoute: RouteDef = {
  method: 'GET',
  path: '/v1/test/numbers',
  weight: 1,
  service: 'data',
  list: { itemsKey: 'numbers' },
  handler(ctx) {
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const { items, nextPageToken } = ctx.page.paginate<number, number>({
      pageSize: size,
      first: 0,
      fetch: (from, limit) => {
        const n = Math.min(ctx.page.shortLimit(limit), 100 - from);
        return { items: Array.from({ length: n }, (_, i) => from + i), next: from + n < 100 ? from + n : undefined };
      },
    });
    return { nextPageToken, numbers: items };
  },
};

let sim: Simulator;
const BLOCKS = '/v1/chains/43114/blocks?pageSize=20';
let correct: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, size: 'tiny', modules: [{ name: 'test', routes: () => [shortRoute] }] });
  correct = (await getJson(sim.baseUrl + BLOCKS)).text.replace(/"nextPageToken":"[^"]*",?/, '');
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.setFaults({});
  sim.resetStats();
});

const strip = (t: string) => t.replace(/"nextPageToken":"[^"]*",?/, '');

describe('faults', () => {
  it.each([
    ['http500', 500, 'Internal Server Error'],
    ['http502', 502, 'Bad Gateway'],
    ['http503', 503, 'Service Unavailable'],
  ] as const)('%s answers %i with an ErrorBody; the retry is correct', async (kind, status, error) => {
    sim.setFaults({ [kind]: 1 });
    const res = await getJson(sim.baseUrl + BLOCKS);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, error });
    expect(sim.stats().faultsInjected[kind]).toBe(1);
    sim.setFaults({});
    expect(strip((await getJson(sim.baseUrl + BLOCKS)).text)).toBe(correct);
  });

  it('burst429 answers a burst of 429s with retry-after 1 to that client', async () => {
    sim.setFaults({ burst429: 1 });
    const first = await getJson(sim.baseUrl + BLOCKS);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    sim.setFaults({});
    expect((await getJson(sim.baseUrl + BLOCKS)).status).toBe(429);
    expect((await getJson(sim.baseUrl + BLOCKS)).status).toBe(429);
    expect(strip((await getJson(sim.baseUrl + BLOCKS)).text)).toBe(correct);
    expect(sim.stats().faultsInjected.burst429).toBe(1);
  });

  it('reset destroys the connection mid-response', async () => {
    sim.setFaults({ reset: 1 });
    await expect(fetch(sim.baseUrl + BLOCKS).then((r) => r.text())).rejects.toThrow();
    expect(sim.stats().faultsInjected.reset).toBe(1);
    sim.setFaults({});
    expect(strip((await getJson(sim.baseUrl + BLOCKS)).text)).toBe(correct);
  });

  it('truncated sends status 200 with half of the JSON body', async () => {
    sim.setFaults({ truncated: 1 });
    const res = await getJson(sim.baseUrl + BLOCKS);
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text) as unknown).toThrow();
    expect(correct.startsWith(strip(res.text).slice(0, 200))).toBe(true);
    expect(res.text.length).toBeLessThan(correct.length);
    expect(sim.stats().faultsInjected.truncated).toBe(1);
  });

  it('slow delays the answer, which is still correct', async () => {
    sim.setFaults({ slow: 1 });
    const started = Date.now();
    const res = await getJson(sim.baseUrl + BLOCKS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(strip(res.text)).toBe(correct);
    expect(sim.stats().faultsInjected.slow).toBe(1);
  });

  it('expiredToken answers a request that carries a token with 400 expired; first pages are unaffected', async () => {
    const token = (await getJson(sim.baseUrl + BLOCKS)).body.nextPageToken as string;
    sim.setFaults({ expiredToken: 1 });
    expect((await getJson(sim.baseUrl + BLOCKS)).status).toBe(200);
    const res = await getJson(sim.baseUrl + withQuery(BLOCKS, { pageToken: token }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Page token expired', statusCode: 400, error: 'Bad Request' });
    expect(sim.stats().faultsInjected.expiredToken).toBe(1);
  });

  it('shortPage makes pages shorter than pageSize with a valid token to the rest', async () => {
    sim.setFaults({ shortPage: 1 });
    const { items, pages } = await walk(sim.baseUrl, '/v1/test/numbers', 'numbers', { pageSize: 25 });
    expect(items).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(pages.length).toBeGreaterThan(4);
    expect(pages.some((p) => (p.numbers as unknown[]).length < 25 && p.nextPageToken)).toBe(true);
    expect(sim.stats().faultsInjected.shortPage).toBeGreaterThan(0);
  });

  it('is deterministic for a fault seed', async () => {
    const statuses = async (faultSeed: number) => {
      const s = await startSimulator({ size: 'tiny', faults: { http500: 0.2, http503: 0.2, burst429: 0.05 }, faultSeed });
      try {
        const out: number[] = [];
        for (let i = 0; i < 40; i++) out.push((await getJson(s.baseUrl + BLOCKS)).status);
        return out;
      } finally {
        await s.close();
      }
    };
    const a = await statuses(42);
    expect(await statuses(42)).toEqual(a);
    expect(a.some((s) => s !== 200)).toBe(true);
    expect(await statuses(43)).not.toEqual(a);
  });

  it('never corrupts the world: a walk retried through mixed faults equals ground truth', async () => {
    sim.setFaults({ http500: 0.1, http502: 0.1, truncated: 0.1, expiredToken: 0.05 });
    const truth = await sim.groundTruth('GET', '/v1/chains/43114/transactions');
    const items: unknown[] = [];
    let token: string | undefined;
    let faults = 0;
    for (;;) {
      const res = await getJson(sim.baseUrl + withQuery('/v1/chains/43114/transactions', { pageSize: 50, pageToken: token }));
      if (res.status !== 200 || !res.text.endsWith('}') || !('transactions' in res.body)) {
        faults++;
        continue; // retry the same page
      }
      items.push(...(res.body.transactions as unknown[]));
      token = res.body.nextPageToken as string | undefined;
      if (!token) break;
    }
    expect(faults).toBeGreaterThan(0);
    expect(items).toEqual(truth);
  });
});
