import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import * as S from './evmSchemas.ts';
import { getJson, walk, withQuery } from './simHttp.ts';

/** Contract tests of every EVM and holder-metrics endpoint over real HTTP (spec tables). */

let sim: Simulator;
let holder: string;
let erc20: string;
let erc721: string;
let erc1155: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, size: 'tiny' });
  const { evm } = sim.world.describe();
  const on = (type: string) => evm.contracts.find((c) => c.chainId === '43114' && c.ercType === type)!.address;
  erc20 = on('ERC-20');
  erc721 = on('ERC-721');
  erc1155 = on('ERC-1155');
  // The address holding the most ERC items, so balance lists span several pages.
  let best = -1;
  for (const a of evm.addresses) {
    let n = 0;
    for (const kind of ['Erc20', 'Erc721', 'Erc1155']) n += (await sim.groundTruth('GET', `/v1/chains/43114/addresses/${a}/balances:list${kind}`)).length;
    if (n > best) [best, holder] = [n, a];
  }
});
afterAll(async () => {
  await sim.close();
});

interface ListCase {
  name: string;
  path: () => string;
  itemsKey: string;
  item: z.ZodType;
  max: number;
  query?: Record<string, string>;
  metrics?: boolean;
  extra?: z.ZodRawShape;
  key: (item: Record<string, unknown>) => string;
}

const txKey = (t: Record<string, unknown>) => t.txHash as string;
/** An ERC-1155 batch is several entries under one log index, one per token id: the id is part of the key. */
const transferKey = (t: Record<string, unknown>) => {
  const nft = (t.erc721Token ?? t.erc1155Token) as { tokenId?: string } | undefined;
  return `${t.txHash as string}/${t.logIndex as number}/${nft?.tokenId ?? ''}`;
};
const tokenKey = (t: Record<string, unknown>) => `${t.address as string}/${(t.tokenId as string) ?? ''}`;
const withNative = { nativeTokenBalance: S.NativeTokenBalance };

const lists: ListCase[] = [
  { name: 'blocks', path: () => '/v1/chains/43114/blocks', itemsKey: 'blocks', item: S.Block, max: 100, key: (b) => b.blockNumber as string },
  { name: 'blocks by blockchain id', path: () => '/v1/chains/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/blocks', itemsKey: 'blocks', item: S.Block, max: 100, key: (b) => b.blockNumber as string },
  { name: 'chain transactions', path: () => '/v1/chains/43114/transactions', itemsKey: 'transactions', item: S.NativeTransaction, max: 100, key: txKey },
  { name: 'failed transactions', path: () => '/v1/chains/43114/transactions', query: { status: 'failed' }, itemsKey: 'transactions', item: S.NativeTransaction, max: 100, key: txKey },
  { name: 'successful transactions', path: () => '/v1/chains/43113/transactions', query: { status: 'success' }, itemsKey: 'transactions', item: S.NativeTransaction, max: 100, key: txKey },
  { name: 'address transactions', path: () => `/v1/chains/43114/addresses/${holder}/transactions:listNative`, itemsKey: 'transactions', item: S.NativeTransaction, max: 100, key: txKey },
  {
    name: 'address transactions in a block range', path: () => `/v1/chains/43114/addresses/${holder}/transactions:listNative`, query: { startBlock: '50', endBlock: '200' },
    itemsKey: 'transactions', item: S.NativeTransaction, max: 100, key: txKey,
  },
  { name: 'ERC-20 transfers', path: () => `/v1/chains/43114/tokens/${erc20}/transfers`, itemsKey: 'transfers', item: S.ErcTransfer, max: 100, key: transferKey },
  { name: 'ERC-721 transfers', path: () => `/v1/chains/43114/tokens/${erc721}/transfers`, query: { startBlock: '10' }, itemsKey: 'transfers', item: S.ErcTransfer, max: 100, key: transferKey },
  { name: 'ERC-1155 transfers', path: () => `/v1/chains/43114/tokens/${erc1155}/transfers`, query: { endBlock: '250' }, itemsKey: 'transfers', item: S.ErcTransfer, max: 100, key: transferKey },
  { name: 'ERC-20 balances', path: () => `/v1/chains/43114/addresses/${holder}/balances:listErc20`, query: { filterSpamTokens: 'false' }, itemsKey: 'erc20TokenBalances', item: S.Erc20TokenBalance, max: 500, extra: withNative, key: tokenKey },
  { name: 'ERC-721 balances', path: () => `/v1/chains/43114/addresses/${holder}/balances:listErc721`, itemsKey: 'erc721TokenBalances', item: S.Erc721TokenBalance, max: 500, extra: withNative, key: tokenKey },
  { name: 'ERC-1155 balances', path: () => `/v1/chains/43114/addresses/${holder}/balances:listErc1155`, itemsKey: 'erc1155TokenBalances', item: S.Erc1155TokenBalance, max: 500, extra: withNative, key: tokenKey },
  { name: 'holder metrics', path: () => `/v2/chains/43114/contracts/${erc20}/balances`, query: { threshold: '0' }, metrics: true, itemsKey: 'addresses', item: S.HolderEntry, max: 5000, key: (h) => h.address as string },
];

describe.each(lists)('$name', (c) => {
  const base = () => (c.metrics ? sim.metricsUrl : sim.baseUrl);

  it('pages match the spec shape; a small-page walk is complete, disjoint, equals ground truth; last page has no token', async () => {
    const truth = await sim.groundTruth('GET', c.path(), c.query ?? {});
    expect(truth.length).toBeGreaterThan(0);
    const pageSize = Math.min(c.max, Math.max(1, Math.ceil(truth.length / 4)));
    const { items, pages } = await walk(base(), c.path(), c.itemsKey, { ...c.query, pageSize });
    const schema = S.listPage(c.itemsKey, c.item, c.extra);
    for (const page of pages) schema.parse(page);
    expect(pages.length).toBeGreaterThanOrEqual(Math.min(4, truth.length));
    for (const page of pages.slice(0, -1)) expect((page[c.itemsKey] as unknown[]).length).toBe(pageSize);
    expect('nextPageToken' in pages[pages.length - 1]).toBe(false);
    expect(items).toEqual(truth);
    const keys = (items as Record<string, unknown>[]).map(c.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('enforces the pageSize bounds with 400 ErrorBody naming pageSize', async () => {
    for (const bad of ['0', String(c.max + 1), '1.5', 'ten', '-3']) {
      const res = await getJson(base() + withQuery(c.path(), { ...c.query, pageSize: bad }));
      expect(res.status).toBe(400);
      expect(S.ErrorBody.parse(res.body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(String(res.body.message)).toMatch(/pageSize/);
    }
    const ok = await getJson(base() + withQuery(c.path(), { ...c.query, pageSize: c.max }));
    expect(ok.status).toBe(200);
    const dflt = await getJson(base() + withQuery(c.path(), c.query ?? {}));
    expect((dflt.body[c.itemsKey] as unknown[]).length).toBeLessThanOrEqual(c.metrics ? 1000 : 10);
  });

  it('answers an unknown chain with 404', async () => {
    const path = c.path().replace(/\/chains\/[^/]+\//, '/chains/999999/');
    const res = await getJson(base() + withQuery(path, c.query ?? {}));
    expect(res.status).toBe(404);
    expect(S.ErrorBody.parse(res.body)).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe('address and parameter validation', () => {
  it('rejects malformed addresses, hashes and filters with 400 naming the parameter', async () => {
    const bad: [string, string, RegExp][] = [
      [sim.baseUrl, '/v1/chains/43114/addresses/0x123/transactions:listNative', /address/],
      [sim.baseUrl, '/v1/chains/43114/addresses/avax1xyz/balances:getNative', /address/],
      [sim.baseUrl, '/v1/chains/43114/tokens/0xZZ/transfers', /address/],
      [sim.baseUrl, '/v1/chains/43114/transactions/0x1234', /txHash/],
      [sim.baseUrl, '/v1/chains/43114/transactions?status=pending', /status/],
      [sim.baseUrl, `/v1/chains/43114/tokens/${'0x' + '1'.repeat(40)}/transfers?startBlock=-1`, /startBlock/],
      [sim.baseUrl, `/v1/chains/43114/tokens/${'0x' + '1'.repeat(40)}/transfers?startBlock=9&endBlock=3`, /endBlock/],
      [sim.baseUrl, `/v1/chains/43114/addresses/${'0x' + '1'.repeat(40)}/balances:getNative?blockNumber=abc`, /blockNumber/],
      [sim.baseUrl, `/v1/chains/43114/addresses/${'0x' + '1'.repeat(40)}/balances:getNative?currency=xyz`, /currency/],
      [sim.baseUrl, `/v1/chains/43114/addresses/${'0x' + '1'.repeat(40)}/balances:listErc20?filterSpamTokens=maybe`, /filterSpamTokens/],
      [sim.baseUrl, `/v1/chains/43114/addresses/${'0x' + '1'.repeat(40)}/balances:listErc20?contractAddresses=0x1,0x2`, /contractAddresses/],
      [sim.metricsUrl, `/v2/chains/43114/contracts/${'0x' + '1'.repeat(40)}/balances`, /threshold/],
      [sim.metricsUrl, `/v2/chains/43114/contracts/${'0x' + '1'.repeat(40)}/balances?threshold=1.5`, /threshold/],
      [sim.metricsUrl, `/v2/chains/43114/contracts/${'0x' + '1'.repeat(40)}/balances?threshold=1&startTimestamp=-5`, /startTimestamp/],
    ];
    for (const [base, path, re] of bad) {
      const res = await getJson(base + path);
      expect(res.status, path).toBe(400);
      expect(S.ErrorBody.parse(res.body).message, path).toMatch(re);
    }
  });

  it('404s unknown chains, transactions and NFTs', async () => {
    const hash = '0x' + 'ab'.repeat(32);
    for (const path of ['/v1/chains/1/blocks', '/v1/chains/43114/transactions/' + hash, `/v1/chains/43114/nfts/collections/${erc20}/tokens/1`, `/v1/chains/43114/nfts/collections/${erc721}/tokens/99999`]) {
      const res = await getJson(sim.baseUrl + path);
      expect(res.status, path).toBe(404);
      S.ErrorBody.parse(res.body);
    }
  });
});

describe('single-item endpoints', () => {
  it('native balance matches NativeTokenBalance and honours blockNumber', async () => {
    const latest = await getJson(`${sim.baseUrl}/v1/chains/43114/addresses/${holder}/balances:getNative`);
    const early = await getJson(`${sim.baseUrl}/v1/chains/43114/addresses/${holder}/balances:getNative?blockNumber=5&currency=eur`);
    const a = S.NativeTokenBalance.parse(latest.body.nativeTokenBalance);
    const b = S.NativeTokenBalance.parse(early.body.nativeTokenBalance);
    expect(b.price.currencyCode).toBe('eur');
    expect(BigInt(a.balance)).toBeGreaterThan(BigInt(b.balance));
    const beyond = await getJson(`${sim.baseUrl}/v1/chains/43114/addresses/${holder}/balances:getNative?blockNumber=100000`);
    expect(beyond.status).toBe(400);
  });

  it('transaction detail matches the spec for every tx hash of the world sample, by chain id and blockchain id', async () => {
    for (const { chainId, txHash } of sim.world.describe().evm.txHashes) {
      const res = await getJson(`${sim.baseUrl}/v1/chains/${chainId}/transactions/${txHash}`);
      expect(res.status).toBe(200);
      S.TransactionDetail.parse(res.body);
    }
    const { txHash } = sim.world.describe().evm.txHashes[0];
    const other = await getJson(`${sim.baseUrl}/v1/chains/43113/transactions/${txHash}`);
    expect(other.status).toBe(404);
    const upper = await getJson(`${sim.baseUrl}/v1/chains/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/transactions/${txHash.toUpperCase().replace('0X', '0x')}`);
    expect(upper.status).toBe(200);
  });

  it('NFT tokens of ERC-721 and ERC-1155 collections match the Erc721Token / Erc1155Token shapes', async () => {
    for (const { chainId, address, tokenId } of sim.world.describe().evm.nfts) {
      const res = await getJson(`${sim.baseUrl}/v1/chains/${chainId}/nfts/collections/${address}/tokens/${tokenId}`);
      expect(res.status).toBe(200);
      S.NftToken.parse(res.body);
    }
  });

  it('serves uint256 values above 2^128 as exact decimal strings', async () => {
    const transfers = (await sim.groundTruth('GET', `/v1/chains/43114/tokens/${erc20}/transfers`)) as { value: string }[];
    const txs = (await sim.groundTruth('GET', '/v1/chains/43114/transactions')) as { value: string }[];
    const big = [...transfers, ...txs].filter((t) => BigInt(t.value) > 1n << 128n);
    expect(big.length).toBeGreaterThan(0);
  });
});
