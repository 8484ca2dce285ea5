import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { Router } from '../http/router.ts';
import type { RouteDef } from '../http/route.ts';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, size: 'tiny', keys: [{ key: 'k-free', tier: 'free' }, { key: 'k-old', tier: 'pro', revoked: true }] });
});
afterAll(async () => {
  await sim.close();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(sim.baseUrl + path, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('simulator framework (smoke)', () => {
  it('walks the blocks list to the end and matches ground truth', async () => {
    const seen: unknown[] = [];
    let token: string | undefined;
    do {
      const { status, body } = await get(`/v1/chains/43114/blocks?pageSize=100${token ? `&pageToken=${token}` : ''}`);
      expect(status).toBe(200);
      seen.push(...(body.blocks as unknown[]));
      token = body.nextPageToken as string | undefined;
      if (token === undefined) expect('nextPageToken' in body).toBe(false);
    } while (token);
    expect(seen).toEqual(await sim.groundTruth('GET', '/v1/chains/43114/blocks'));
    expect(seen.length).toBe(sim.world.evm.chain('43114')!.chain.height());
  });

  it('rejects tampered tokens and unknown routes with an ErrorBody', async () => {
    const first = await get('/v1/chains/43114/blocks?pageSize=5');
    const token = first.body.nextPageToken as string;
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(await get(`/v1/chains/43114/blocks?pageToken=${tampered}`)).toEqual({
      status: 400,
      body: { message: 'Invalid page token', statusCode: 400, error: 'Bad Request' },
    });
    // A token is bound to its route params: another chain rejects it.
    expect((await get(`/v1/chains/43113/blocks?pageToken=${token}`)).status).toBe(400);
    expect((await get('/v1/nope')).body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await get('/v1/chains/1/blocks')).status).toBe(404);
  });

  it('authenticates keys: unknown 401, revoked 403, none and free accepted', async () => {
    expect((await get('/v1/chains/43114/blocks', { 'x-service-api-key': 'wrong' })).status).toBe(401);
    expect((await get('/v1/chains/43114/blocks', { 'x-service-api-key': 'k-old' })).status).toBe(403);
    expect((await get('/v1/chains/43114/blocks', { 'x-service-api-key': 'k-free' })).status).toBe(200);
    expect((await get('/v1/chains/43114/blocks')).status).toBe(200);
  });

  it('routes literal colons in segments', () => {
    const router = new Router();
    const mk = (path: string): RouteDef => ({ method: 'GET', path, weight: 1, service: 'data', handler: () => path });
    router.add(mk('/v1/chains/:chainId/addresses/:address/balances:getNative'));
    router.add(mk('/v1/chains/:chainId/addresses/:address/balances:listErc20'));
    router.add(mk('/v1/networks/:network/rewards:listPending'));
    router.add(mk('/v1/networks/:network/:other'));
    expect(router.match('data', 'GET', '/v1/chains/1/addresses/0xab/balances:listErc20')?.params).toEqual({ chainId: '1', address: '0xab' });
    expect(router.match('data', 'GET', '/v1/networks/fuji/rewards:listPending')?.route.path).toBe('/v1/networks/:network/rewards:listPending');
    expect(router.match('data', 'GET', '/v1/networks/fuji/rewards')?.route.path).toBe('/v1/networks/:network/:other');
    expect(router.match('data', 'GET', '/v1/chains/1/addresses/0xab/balances:listErc721')).toBeNull();
    expect(router.match('data', 'GET', '/v1/chains/1/addresses/0xab/balances%3AgetNative')?.route.path).toBe('/v1/chains/:chainId/addresses/:address/balances:getNative');
  });

  it('grows: advance adds blocks at the top', async () => {
    const before = (await get('/v1/chains/43114/blocks?pageSize=1')).body.blocks as { blockNumber: string }[];
    sim.advance(3);
    const after = (await get('/v1/chains/43114/blocks?pageSize=1')).body.blocks as { blockNumber: string }[];
    expect(Number(after[0].blockNumber)).toBe(Number(before[0].blockNumber) + 3);
  });
});
