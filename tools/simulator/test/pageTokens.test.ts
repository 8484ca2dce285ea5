import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { getJson, walk, withQuery } from './simHttp.ts';

/** Page tokens: tamper-proof, bound to route and filters, expiring, stable while chains grow. */

let now = Date.UTC(2026, 0, 1);
let sim: Simulator;
let address: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, size: 'tiny', tokenTtlMs: 60_000, clock: () => now });
  address = sim.world.describe().evm.addresses[2];
});
afterAll(async () => {
  await sim.close();
});

async function firstToken(path: string, query: Record<string, string | number> = {}): Promise<string> {
  const res = await getJson(sim.baseUrl + withQuery(path, { pageSize: 3, ...query }));
  expect(res.status).toBe(200);
  return res.body.nextPageToken as string;
}

describe('page tokens', () => {
  it('rejects a tampered token with 400 "Invalid page token"', async () => {
    const token = await firstToken('/v1/chains/43114/blocks');
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 5, t: now })).toString('base64url');
    for (const bad of [`${forged}.${mac}`, `${payload}.${mac.slice(0, -2)}AA`, 'garbage', `${payload}`]) {
      const res = await getJson(sim.baseUrl + withQuery('/v1/chains/43114/blocks', { pageToken: bad }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Invalid page token', statusCode: 400, error: 'Bad Request' });
    }
  });

  it('binds a token to its route and filters', async () => {
    const token = await firstToken('/v1/chains/43114/transactions', { status: 'success' });
    const ok = await getJson(sim.baseUrl + withQuery('/v1/chains/43114/transactions', { status: 'success', pageToken: token, pageSize: 7 }));
    expect(ok.status).toBe(200);
    for (const path of ['/v1/chains/43114/transactions', '/v1/chains/43114/transactions?status=failed', '/v1/chains/43114/blocks', `/v1/chains/43114/addresses/${address}/transactions:listNative`]) {
      const res = await getJson(sim.baseUrl + withQuery(path, { pageToken: token }));
      expect(res.status, path).toBe(400);
    }
  });

  it('expires after tokenTtlMs with 400 "Page token expired"', async () => {
    const token = await firstToken('/v1/chains/43114/blocks');
    now += 59_000;
    expect((await getJson(sim.baseUrl + withQuery('/v1/chains/43114/blocks', { pageToken: token }))).status).toBe(200);
    now += 2_000;
    const res = await getJson(sim.baseUrl + withQuery('/v1/chains/43114/blocks', { pageToken: token }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Page token expired', statusCode: 400, error: 'Bad Request' });
  });
});

describe('growth', () => {
  const streams: [string, string][] = [
    ['/v1/chains/43114/blocks', 'blocks'],
    ['/v1/chains/43114/transactions', 'transactions'],
    ['/v1/chains/43114/transactions?status=success', 'transactions'],
    ['/v1/chains/43113/blocks', 'blocks'],
  ];

  it.each(streams)('a walk of %s started before advance neither skips nor repeats; new items appear at the top', async (path, key) => {
    const [p, q] = path.split('?');
    const query = Object.fromEntries(new URLSearchParams(q ?? ''));
    const before = await sim.groundTruth('GET', p, query);
    const first = await getJson(sim.baseUrl + withQuery(path, { pageSize: 40 }));
    sim.advance(25);
    const rest = await walk(sim.baseUrl, p, key, { ...query, pageSize: 40 }, {}, first.body.nextPageToken as string);
    expect([...(first.body[key] as unknown[]), ...rest.items]).toEqual(before);
    const after = await sim.groundTruth('GET', p, query);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.slice(after.length - before.length)).toEqual(before);
  });

  it('an address walk and a transfers walk across growth stay exact', async () => {
    const contract = sim.world.describe().evm.contracts.find((c) => c.chainId === '43114')!.address;
    for (const [path, key] of [[`/v1/chains/43114/addresses/${address}/transactions:listNative`, 'transactions'], [`/v1/chains/43114/tokens/${contract}/transfers`, 'transfers']]) {
      const before = await sim.groundTruth('GET', path);
      const first = await getJson(sim.baseUrl + withQuery(path, { pageSize: 5 }));
      sim.advance(40);
      const rest = await walk(sim.baseUrl, path, key, { pageSize: 5 }, {}, first.body.nextPageToken as string);
      expect([...(first.body[key] as unknown[]), ...rest.items]).toEqual(before);
    }
  });

  it('balance lists and holder metrics keep the state of their first page across growth', async () => {
    const d = sim.world.describe().evm;
    const erc20 = d.contracts.find((c) => c.chainId === '43114' && c.ercType === 'ERC-20')!.address;
    const cases: [string, string, string, Record<string, string>][] = [
      [sim.metricsUrl, `/v2/chains/43114/contracts/${erc20}/balances`, 'addresses', { threshold: '0' }],
      ...d.addresses.slice(0, 4).map((a): [string, string, string, Record<string, string>] => [sim.baseUrl, `/v1/chains/43114/addresses/${a}/balances:listErc20`, 'erc20TokenBalances', { filterSpamTokens: 'false' }]),
    ];
    let changed = 0;
    for (const [base, path, key, query] of cases) {
      const before = await sim.groundTruth('GET', path, query);
      if (before.length < 2) continue;
      const first = await getJson(base + withQuery(path, { ...query, pageSize: 1 }));
      sim.advance(60);
      const rest = await walk(base, path, key, { ...query, pageSize: 1 }, {}, first.body.nextPageToken as string);
      expect([...(first.body[key] as unknown[]), ...rest.items], path).toEqual(before);
      if (JSON.stringify(await sim.groundTruth('GET', path, query)) !== JSON.stringify(before)) changed++;
    }
    // The growth did change these lists, so the walks above really relied on the pinned state.
    expect(changed).toBeGreaterThan(0);
  });

  it('admin routes advance the world and serve ground truth and stats without a key', async () => {
    const tip = sim.world.evm.chain('43114')!.chain.tip();
    const res = await fetch(`${sim.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ steps: 2 }) });
    expect(res.status).toBe(200);
    expect(sim.world.evm.chain('43114')!.chain.tip()).toBe(tip + 2);
    const truth = await getJson(`${sim.baseUrl}/admin/truth?path=${encodeURIComponent('/v1/chains/43114/blocks')}`);
    expect((truth.body.items as unknown[]).length).toBe(tip + 3);
    const stats = await getJson(`${sim.baseUrl}/admin/stats`);
    expect(stats.body.requests).toBeGreaterThan(0);
    // CU is counted like requests (every charged request's weight), and ?log=0 leaves the log out.
    expect(stats.body.cu).toBe((stats.body.log as { cu: number }[]).reduce((n, e) => n + e.cu, 0));
    expect(stats.body.cu).toBeGreaterThan(0);
    const counters = await getJson(`${sim.baseUrl}/admin/stats?log=0`);
    expect(counters.body.log).toEqual([]);
    expect(counters.body.cu).toBe(stats.body.cu);
    const bad = await fetch(`${sim.baseUrl}/admin/advance`, { method: 'POST', body: JSON.stringify({ steps: -1 }) });
    expect(bad.status).toBe(400);
  });
});

describe('determinism', () => {
  it('the same seed and size give the same bytes; another seed does not', async () => {
    const [a, b, c] = await Promise.all([
      startSimulator({ seed: 99, size: 'tiny' }),
      startSimulator({ seed: 99, size: 'tiny' }),
      startSimulator({ seed: 100, size: 'tiny' }),
    ]);
    try {
      const addr = a.world.describe().evm.addresses[0];
      const c20 = a.world.describe().evm.contracts[0].address;
      const paths = [
        '/v1/chains/43114/blocks?pageSize=100',
        '/v1/chains/779672/transactions?pageSize=50',
        `/v1/chains/43114/addresses/${addr}/transactions:listNative?pageSize=20`,
        `/v1/chains/43114/tokens/${c20}/transfers?pageSize=20`,
        `/v1/chains/43114/addresses/${addr}/balances:listErc20`,
        `/v1/chains/43114/transactions/${a.world.describe().evm.txHashes[1].txHash}`,
      ];
      for (const path of paths) {
        const [ra, rb, rc] = await Promise.all([a, b, c].map((s) => getJson(s.baseUrl + path)));
        // Tokens embed their issue time; compare bodies without them.
        const strip = (t: string) => t.replace(/"nextPageToken":"[^"]*",?/, '');
        expect(strip(ra.text)).toBe(strip(rb.text));
        expect(strip(ra.text)).not.toBe(strip(rc.text));
      }
      expect(JSON.stringify(a.world.describe())).toBe(JSON.stringify(b.world.describe()));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
