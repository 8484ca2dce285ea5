import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import * as S from './primarySchemas.ts';
import { getJson, walk, withQuery } from './simHttp.ts';

/** Contract tests of the primary-network endpoints over real HTTP: shapes, bounds, walks vs ground truth. */

interface PnDescription {
  addresses: string[];
  nodeIds: string[];
  subnetIds: string[];
  l1ValidationIds: string[];
  assetIds: string[];
  chainIds: Record<string, string>;
}

let sim: Simulator;
let pn: PnDescription;
let busy: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 21, size: 'tiny' });
  pn = (sim.world.describe().primary as Record<string, PnDescription>).mainnet;
  // The address with the most P-chain transactions, so its lists span several pages.
  let best = -1;
  for (const a of pn.addresses) {
    const n = (await sim.groundTruth('GET', `/v1/networks/mainnet/blockchains/p-chain/transactions`, { addresses: a })).length;
    if (n > best) [best, busy] = [n, a];
  }
});
afterAll(async () => {
  await sim.close();
});

const N = '/v1/networks/mainnet';

interface ListCase {
  name: string;
  path: () => string;
  query: () => Record<string, string>;
  itemsKey: string;
  item: z.ZodType;
  max: number;
}

const cases: ListCase[] = [
  { name: 'GET utxos', path: () => `${N}/blockchains/p-chain/utxos`, query: () => ({ addresses: busy, includeSpent: 'true' }), itemsKey: 'utxos', item: S.utxo, max: 100 },
  { name: 'X-chain utxos by asset', path: () => `${N}/blockchains/x-chain/utxos`, query: () => ({ addresses: busy, assetId: pn.assetIds[0] }), itemsKey: 'utxos', item: S.genericUtxo, max: 100 },
  { name: 'latest transactions', path: () => `${N}/blockchains/p-chain/transactions`, query: () => ({}), itemsKey: 'transactions', item: S.transaction, max: 100 },
  { name: 'address transactions', path: () => `${N}/blockchains/x-chain/transactions`, query: () => ({ addresses: `X-${busy}` }), itemsKey: 'transactions', item: S.xTransaction, max: 100 },
  { name: 'C-chain atomic transactions', path: () => `${N}/blockchains/c-chain/transactions`, query: () => ({}), itemsKey: 'transactions', item: S.cTransaction, max: 100 },
  { name: 'validators', path: () => `${N}/validators`, query: () => ({ minUptimePerformance: '0' }), itemsKey: 'validators', item: S.validator, max: 100 },
  { name: 'historical rewards', path: () => `${N}/rewards`, query: () => ({ addresses: busy }), itemsKey: 'historicalRewards', item: S.historicalReward, max: 100 },
  { name: 'historical rewards by node', path: () => `${N}/rewards`, query: () => ({ nodeIds: pn.nodeIds.slice(0, 5).join(',') }), itemsKey: 'historicalRewards', item: S.historicalReward, max: 100 },
  { name: 'pending rewards', path: () => `${N}/rewards:listPending`, query: () => ({ nodeIds: pn.nodeIds.slice(-8).join(',') }), itemsKey: 'pendingRewards', item: S.pendingReward, max: 100 },
  { name: 'vertices', path: () => `${N}/blockchains/x-chain/vertices`, query: () => ({}), itemsKey: 'vertices', item: S.vertex, max: 100 },
  { name: 'vertices by height', path: () => `${N}/blockchains/x-chain/vertices:listByHeight`, query: () => ({ vertexHeight: '5' }), itemsKey: 'vertices', item: S.vertex, max: 100 },
];

describe.each(cases)('$name', (c) => {
  it('items match the spec shape; a small-page walk is complete, disjoint and equals ground truth', async () => {
    const truth = await sim.groundTruth('GET', c.path(), c.query());
    expect(truth.length).toBeGreaterThan(0);
    const { items, pages } = await walk(sim.baseUrl, c.path(), c.itemsKey, { ...c.query(), pageSize: 7 });
    for (const page of pages) expect((page[c.itemsKey] as unknown[]).length).toBeLessThanOrEqual(7);
    expect(JSON.parse(JSON.stringify(items))).toEqual(JSON.parse(JSON.stringify(truth)));
    const ids = items.map((i) => JSON.stringify(i));
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of items) c.item.parse(item);
    for (const page of pages.slice(0, -1)) expect(typeof page.nextPageToken).toBe('string');
    expect('nextPageToken' in pages[pages.length - 1]).toBe(false);
  });

  it('rejects page sizes outside 1..max with an ErrorBody naming pageSize', async () => {
    for (const size of [0, c.max + 1, -1]) {
      const res = await getJson(sim.baseUrl + withQuery(c.path(), { ...c.query(), pageSize: size }));
      expect(res.status).toBe(400);
      S.errorBody.parse(res.body);
      expect(String(res.body.message)).toContain('pageSize');
    }
    expect((await getJson(sim.baseUrl + withQuery(c.path(), { ...c.query(), pageSize: c.max }))).status).toBe(200);
  });
});

async function post(path: string, body: unknown, query: Record<string, string | number> = {}) {
  const res = await fetch(sim.baseUrl + withQuery(path, query), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function status(path: string, query: Record<string, string | number>): Promise<{ status: number; message: string }> {
  const res = await getJson(sim.baseUrl + withQuery(path, query));
  if (res.status !== 200) S.errorBody.parse(res.body);
  return { status: res.status, message: String(res.body.message ?? '') };
}

async function expect400(path: string, query: Record<string, string | number>, names: string): Promise<void> {
  const r = await status(path, query);
  expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(400);
  expect(r.message).toContain(names);
}

describe('POST utxos (v2)', () => {
  it('walks with page sizes up to 1024 and equals ground truth', async () => {
    const path = `${N}/blockchains/p-chain/utxos`;
    const body = { addresses: `P-${busy},${pn.addresses[1]}` };
    const items: unknown[] = [];
    let token: string | undefined;
    do {
      const res = await post(path, body, { pageSize: 5, includeSpent: 'true', sortBy: 'amount', sortOrder: 'desc', ...(token ? { pageToken: token } : {}) });
      expect(res.status).toBe(200);
      S.chainInfo.parse(res.body.chainInfo);
      items.push(...(res.body.utxos as unknown[]));
      token = res.body.nextPageToken as string | undefined;
    } while (token);
    const truth = await sim.groundTruth('POST', path, { includeSpent: 'true', sortBy: 'amount', sortOrder: 'desc' }, body);
    expect(JSON.parse(JSON.stringify(items))).toEqual(JSON.parse(JSON.stringify(truth)));
    const amounts = (items as { amount: string }[]).map((u) => BigInt(u.amount));
    for (let i = 1; i < amounts.length; i++) expect(amounts[i] <= amounts[i - 1]).toBe(true);
    expect((await post(path, body, { pageSize: 1024 })).status).toBe(200);
    expect((await post(path, body, { pageSize: 1025 })).status).toBe(400);
  });

  it('requires addresses in the body and validates them', async () => {
    const path = `${N}/blockchains/p-chain/utxos`;
    expect((await post(path, {})).body.message).toContain('addresses');
    expect((await post(path, { addresses: 'avax1notanaddress' })).status).toBe(400);
    // A fuji address on mainnet has the wrong hrp.
    const fuji = (sim.world.describe().primary as Record<string, PnDescription>).fuji.addresses[0];
    expect((await post(path, { addresses: fuji })).body.message).toContain('addresses');
  });
});

describe('parameter rules', () => {
  it('UTXO filters: assetId X-chain only, minUtxoAmount >= 0, includeSpent/sortBy/sortOrder enums', async () => {
    const p = `${N}/blockchains/p-chain/utxos`;
    await expect400(p, { addresses: busy, assetId: pn.assetIds[0] }, 'assetId');
    await expect400(`${N}/blockchains/x-chain/utxos`, { addresses: busy, assetId: 'nope' }, 'assetId');
    await expect400(p, { addresses: busy, minUtxoAmount: -1 }, 'minUtxoAmount');
    await expect400(p, { addresses: busy, includeSpent: 'yes' }, 'includeSpent');
    await expect400(p, { addresses: busy, sortBy: 'size' }, 'sortBy');
    await expect400(p, { addresses: busy, sortOrder: 'up' }, 'sortOrder');
    await expect400(p, { addresses: 'X-avax1qqqq' }, 'addresses');
    const min = await sim.groundTruth('GET', p, { addresses: busy, minUtxoAmount: '1000000000000' });
    for (const u of min as { amount: string }[]) expect(BigInt(u.amount) >= 1_000_000_000_000n).toBe(true);
    const unspent = await sim.groundTruth('GET', p, { addresses: busy });
    for (const u of unspent as { consumingTxHash?: string }[]) expect(u.consumingTxHash).toBeUndefined();
  });

  it('transactions: filters need an address; timestamps >= 0; txTypes enum; l1ValidationId P-chain only', async () => {
    const p = `${N}/blockchains/p-chain/transactions`;
    await expect400(p, { txTypes: 'BaseTx' }, 'txTypes');
    await expect400(p, { startTimestamp: 1 }, 'startTimestamp');
    await expect400(p, { endTimestamp: 1 }, 'endTimestamp');
    await expect400(p, { addresses: busy, startTimestamp: -1 }, 'startTimestamp');
    await expect400(p, { addresses: busy, startTimestamp: 10, endTimestamp: 5 }, 'startTimestamp');
    await expect400(p, { addresses: busy, txTypes: 'Nope' }, 'txTypes');
    await expect400(`${N}/blockchains/x-chain/transactions`, { l1ValidationId: pn.l1ValidationIds[0] }, 'l1ValidationId');
    await expect400(`${N}/blockchains/q-chain/transactions`, {}, 'blockchainId');
    await expect400('/v1/networks/devnet/blockchains/p-chain/transactions', {}, 'network');
    const typed = (await sim.groundTruth('GET', p, { addresses: busy, txTypes: 'BaseTx,ImportTx', startTimestamp: '0' })) as { txType: string }[];
    expect(typed.length).toBeGreaterThan(0);
    for (const t of typed) expect(['BaseTx', 'ImportTx']).toContain(t.txType);
    // The L1 validation id flow: every transaction names that validation id.
    const id = pn.l1ValidationIds[0];
    const l1 = (await sim.groundTruth('GET', p, { l1ValidationId: id })) as { l1ValidatorDetails?: { validationId: string }[] }[];
    expect(l1.length).toBeGreaterThan(0);
    for (const t of l1) expect(t.l1ValidatorDetails!.map((d) => d.validationId)).toContain(id);
  });

  it('transactions: C-chain atomic transactions can be looked up by 0x EVM address', async () => {
    const all = await sim.groundTruth('GET', `${N}/blockchains/c-chain/transactions`);
    const evm = ((sim.world.describe().primary as Record<string, { evmAddresses: string[] }>).mainnet.evmAddresses)[0];
    const mine = await sim.groundTruth('GET', `${N}/blockchains/c-chain/transactions`, { addresses: evm.toUpperCase().replace('0X', '0x') });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(all.length);
    await expect400(`${N}/blockchains/p-chain/transactions`, { addresses: evm }, 'addresses');
  });

  it('transactions: testnet is fuji, base58 chain ids work, blockchainId aliases agree', async () => {
    const a = await getJson(sim.baseUrl + `/v1/networks/testnet/blockchains/x-chain/transactions?pageSize=3`);
    const b = await getJson(sim.baseUrl + `/v1/networks/fuji/blockchains/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm/transactions?pageSize=3`);
    expect(a.status).toBe(200);
    expect(a.body.transactions).toEqual(b.body.transactions);
    expect(b.body.chainInfo).toEqual({ chainName: 'x-chain', network: 'fuji' });
  });

  it('validators: every bound and the delegationFee sort rule', async () => {
    const p = `${N}/validators`;
    await expect400(p, { sortBy: 'delegationFee' }, 'delegationFee');
    await expect400('/v1/networks/fuji/validators', { sortBy: 'delegationFee', subnetId: pn.chainIds['p-chain'] }, 'delegationFee');
    expect((await status(p, { sortBy: 'delegationFee', subnetId: pn.chainIds['p-chain'] })).status).toBe(200);
    await expect400(p, { sortBy: 'stake' }, 'sortBy');
    await expect400(p, { validationStatus: 'gone' }, 'validationStatus');
    await expect400(p, { minDelegationCapacity: '720000000000000001' }, 'minDelegationCapacity');
    await expect400(p, { maxDelegationCapacity: '-1' }, 'maxDelegationCapacity');
    expect((await status(p, { maxDelegationCapacity: '720000000000000000' })).status).toBe(200);
    await expect400(p, { minTimeRemaining: 2147483648 }, 'minTimeRemaining');
    await expect400(p, { maxTimeRemaining: -1 }, 'maxTimeRemaining');
    await expect400(p, { minFeePercentage: 1 }, 'minFeePercentage');
    await expect400(p, { maxFeePercentage: 101 }, 'maxFeePercentage');
    await expect400(p, { minUptimePerformance: 101 }, 'minUptimePerformance');
    await expect400(p, { maxUptimePerformance: -1 }, 'maxUptimePerformance');
    await expect400(p, { subnetId: 'xyz' }, 'subnetId');
  });

  it('validators: filters select what they say', async () => {
    const p = `${N}/validators`;
    type V = { nodeId: string; subnetId: string; delegationFee?: string; endTimestamp: number; validationStatus: string };
    const all = (await sim.groundTruth('GET', p, { minUptimePerformance: '0' })) as V[];
    const subnetOnes = all.filter((v) => v.subnetId !== pn.chainIds['p-chain']);
    expect(subnetOnes.length).toBeGreaterThan(0);
    const fee = (await sim.groundTruth('GET', p, { minUptimePerformance: '0', minFeePercentage: '5' })) as V[];
    expect(fee.length).toBeGreaterThan(0);
    for (const v of fee) expect(Number(v.delegationFee)).toBeGreaterThanOrEqual(5);
    expect(fee.some((v) => v.subnetId !== pn.chainIds['p-chain'])).toBe(false);
    const sub = pn.nodeIds[0].slice(10, 16);
    const byNode = (await sim.groundTruth('GET', p, { minUptimePerformance: '0', nodeIds: sub })) as V[];
    expect(byNode.length).toBeGreaterThan(0);
    for (const v of byNode) expect(v.nodeId).toContain(sub);
    for (const s of ['active', 'completed', 'pending', 'removed']) {
      const got = (await sim.groundTruth('GET', p, { minUptimePerformance: '0', validationStatus: s })) as V[];
      for (const v of got) expect(v.validationStatus).toBe(s);
    }
    const bySubnet = (await sim.groundTruth('GET', p, { minUptimePerformance: '0', subnetId: subnetOnes[0].subnetId })) as V[];
    for (const v of bySubnet) expect(v.subnetId).toBe(subnetOnes[0].subnetId);
    const byTime = (await sim.groundTruth('GET', p, { minUptimePerformance: '0', sortBy: 'timeRemaining', sortOrder: 'asc' })) as V[];
    const remaining = byTime.map((v) => Math.max(0, v.endTimestamp - (sim.world.describe().primary as Record<string, { headTimestamp: number }>).mainnet.headTimestamp));
    expect([...remaining].sort((a, b) => a - b)).toEqual(remaining);
    // Uptime defaults (90..100) exclude some validators that minUptimePerformance=0 includes.
    expect(((await sim.groundTruth('GET', p)) as V[]).length).toBeLessThan(all.length);
  });

  it('rewards: addresses or nodeIds required; currency enum; nodeIds format', async () => {
    await expect400(`${N}/rewards`, {}, 'addresses or nodeIds');
    await expect400(`${N}/rewards:listPending`, {}, 'addresses or nodeIds');
    await expect400(`${N}/rewards`, { addresses: busy, currency: 'btc' }, 'currency');
    await expect400(`${N}/rewards`, { nodeIds: 'NodeID-zzz' }, 'nodeIds');
    const eur = (await sim.groundTruth('GET', `${N}/rewards`, { addresses: busy, currency: 'eur' })) as { reward: { historicalPrice: { currencyCode: string } } }[];
    for (const r of eur) expect(r.reward.historicalPrice.currencyCode).toBe('eur');
  });

  it('balances: P-chain has all keys, X-chain locked/unlocked and atomic memory, C-chain only atomic memory; blockTimestamp >= 0', async () => {
    const p = await getJson(sim.baseUrl + `${N}/blockchains/p-chain/balances?addresses=${busy}`);
    S.pBalances.parse(p.body.balances);
    const x = await getJson(sim.baseUrl + `${N}/blockchains/x-chain/balances?addresses=${busy}`);
    S.xBalances.parse(x.body.balances);
    const c = await getJson(sim.baseUrl + `${N}/blockchains/c-chain/balances?addresses=${busy}`);
    S.cBalances.parse(c.body.balances);
    S.chainInfo.parse(c.body.chainInfo);
    await expect400(`${N}/blockchains/p-chain/balances`, { blockTimestamp: -5 }, 'blockTimestamp');
    await expect400(`${N}/blockchains/p-chain/balances`, { addresses: 'nope' }, 'addresses');
  });

  it('vertices: X-chain only; vertexHeight required and >= 0', async () => {
    await expect400(`${N}/blockchains/c-chain/vertices`, {}, 'blockchainId');
    await expect400(`${N}/blockchains/${pn.chainIds['p-chain']}/vertices`, {}, 'blockchainId');
    await expect400(`/v1/networks/fuji/blockchains/${pn.chainIds['x-chain']}/vertices`, {}, 'blockchainId');
    expect((await status(`${N}/blockchains/${pn.chainIds['x-chain']}/vertices`, {})).status).toBe(200);
    await expect400(`${N}/blockchains/x-chain/vertices:listByHeight`, {}, 'vertexHeight');
    await expect400(`${N}/blockchains/x-chain/vertices:listByHeight`, { vertexHeight: -1 }, 'vertexHeight');
  });
});

describe('short pages', () => {
  it('are issued by the fault hook and by UTXO volume, and the walk still equals ground truth', async () => {
    const path = `${N}/blockchains/p-chain/transactions`;
    sim.setFaults({ shortPage: 0.5 });
    try {
      // Small pages, so the walk has enough of them that one is cut whatever the fault draws.
      const { items, pages } = await walk(sim.baseUrl, path, 'transactions', { pageSize: 20 });
      expect(pages.slice(0, -1).some((p) => (p.transactions as unknown[]).length < 20)).toBe(true);
      expect(JSON.parse(JSON.stringify(items))).toEqual(JSON.parse(JSON.stringify(await sim.groundTruth('GET', path))));
    } finally {
      sim.setFaults({});
    }
    // Without faults: the genesis allocation alone carries many UTXOs, so its page is cut by volume.
    const { pages } = await walk(sim.baseUrl, path, 'transactions', { pageSize: 100, sortOrder: 'asc' });
    expect((pages[0].transactions as unknown[]).length).toBeLessThan(100);
    expect(pages.length).toBeGreaterThan(1);
  });
});
