import { badRequest } from '../http/apiError.ts';
import { exactSpans } from '../http/exactJson.ts';
import { JsonItemWriter } from '../http/jsonText.ts';
import { bigIntParam, boolParam, cb58Id, enumParam, intParam, listParam, nodeId, numberParam, pageSize } from '../http/params.ts';
import { WEIGHT, type RequestContext, type RouteDef } from '../http/route.ts';
import { balancesAt } from '../primary/balances.ts';
import { PRIMARY_NETWORK_ID, type ChainAlias } from '../primary/chains.ts';
import { cb58Encode, parseHex } from '../primary/ids.ts';
import { keyedFetch, type SortKey } from '../primary/keyedWalk.ts';
import { CURRENCIES, listHistoricalRewards, listPendingRewards } from '../primary/rewardQuery.ts';
import { listTransactions, UTXOS_PER_PAGE_BUDGET } from '../primary/transactionQuery.ts';
import type { PnTransaction, Vertex } from '../primary/types.ts';
import { txView, utxoView } from '../primary/publicShapes.ts';
import { listUtxos } from '../primary/utxoQuery.ts';
import { listValidators, VALIDATOR_SORTS, validatorSet, writeValidator } from '../primary/validatorQuery.ts';
import { chainInfo, ordered, parseAddresses, pnChain, pnNetwork, queryAddresses, sortOrder } from './primaryParams.ts';

/**
 * Primary-network endpoints. Every list handler computes "all items for these filters" once (the
 * same function ground truth goes through) and pages over it by sort key.
 */

const BASE = '/v1/networks/:network/blockchains/:blockchainId';
const MAX_GET_ADDRESSES = 64;
const MAX_POST_ADDRESSES = 1024;

export const PN_TX_TYPES = [
  'AddValidatorTx', 'AddSubnetValidatorTx', 'AddDelegatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx', 'AdvanceTimeTx',
  'RewardValidatorTx', 'RemoveSubnetValidatorTx', 'TransformSubnetTx', 'AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'BaseTx',
  'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx', 'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx',
  'IncreaseL1ValidatorBalanceTx', 'UNKNOWN', 'CreateAssetTx', 'OperationTx',
] as const;

function utxoHandler(post: boolean) {
  return (ctx: RequestContext) => {
    const { net, gen } = pnNetwork(ctx);
    const chain = pnChain(ctx, net);
    let addresses: string[];
    if (post) {
      const body = ctx.body as { addresses?: unknown } | undefined;
      if (!body || typeof body !== 'object' || typeof body.addresses !== 'string' || body.addresses.trim() === '') throw badRequest('addresses is required (comma-separated string in the body)');
      const raw = body.addresses.split(',').map((s) => s.trim()).filter(Boolean);
      addresses = parseAddresses(raw, 'addresses', net, { max: MAX_POST_ADDRESSES });
    } else {
      addresses = queryAddresses(ctx, net, { max: MAX_GET_ADDRESSES });
    }
    const size = pageSize(ctx.query, { def: 10, max: post ? 1024 : 100 });
    const assetRaw = ctx.query.get('assetId');
    let assetId: string | undefined;
    if (assetRaw !== null && assetRaw !== '') {
      if (chain !== 'x-chain') throw badRequest('assetId is only applicable to the X-chain');
      assetId = cb58Id(assetRaw, 'assetId');
    }
    const order = sortOrder(ctx, 'asc');
    const filter = {
      addresses,
      assetId,
      minUtxoAmount: bigIntParam(ctx.query, 'minUtxoAmount', { min: 0n }) ?? 0n,
      includeSpent: boolParam(ctx.query, 'includeSpent', false),
      sortBy: enumParam(ctx.query, 'sortBy', ['timestamp', 'amount'] as const) ?? 'timestamp',
      sortOrder: order,
    };
    const { items, keyOf } = ctx.page.memo(() => listUtxos(gen.ledger, chain, filter));
    const page = walk(ctx, size, items, keyOf, order);
    return { nextPageToken: page.nextPageToken, utxos: page.items.map((u) => utxoView(gen.ledger, chain, u)), chainInfo: chainInfo(chain, net) };
  };
}

/** The items come pre-sorted in list order; keyedFetch walks them in that order. */
function walk<I>(ctx: RequestContext, size: number, items: I[], keyOf: (i: I) => SortKey, order: 'asc' | 'desc', admit?: (page: I[], next: I) => boolean) {
  return ctx.page.paginate<SortKey | null, I>({ pageSize: size, first: null, fetch: keyedFetch(items, keyOf, order, admit) });
}

const utxosPost: RouteDef = { method: 'POST', path: `${BASE}/utxos`, weight: WEIGHT.xl, service: 'data', list: { itemsKey: 'utxos' }, handler: utxoHandler(true) };
const utxosGet: RouteDef = { method: 'GET', path: `${BASE}/utxos`, weight: WEIGHT.xl, service: 'data', list: { itemsKey: 'utxos' }, handler: utxoHandler(false) };

function l1ValidationIdParam(ctx: RequestContext, chain: ChainAlias): string | undefined {
  const raw = ctx.query.get('l1ValidationId');
  if (raw === null || raw === '') return undefined;
  if (chain !== 'p-chain') throw badRequest('l1ValidationId is only applicable to the P-chain');
  const hex = /^0x[0-9a-fA-F]{64}$/.test(raw) ? parseHex(raw) : undefined;
  return hex ? cb58Encode(hex) : cb58Id(raw, 'l1ValidationId');
}

const transactions: RouteDef = {
  method: 'GET',
  path: `${BASE}/transactions`,
  weight: WEIGHT.xl,
  service: 'data',
  list: { itemsKey: 'transactions' },
  handler(ctx) {
    const { net, gen } = pnNetwork(ctx);
    const chain = pnChain(ctx, net);
    const addresses = queryAddresses(ctx, net, { max: MAX_GET_ADDRESSES, allowEvm: chain === 'c-chain' });
    const l1ValidationId = l1ValidationIdParam(ctx, chain);
    const txTypes = listParam(ctx.query, 'txTypes');
    for (const t of txTypes) if (!(PN_TX_TYPES as readonly string[]).includes(t)) throw badRequest(`txTypes: unknown transaction type "${t}"`);
    const startTimestamp = intParam(ctx.query, 'startTimestamp', { min: 0 });
    const endTimestamp = intParam(ctx.query, 'endTimestamp', { min: 0 });
    ordered(startTimestamp, endTimestamp, 'startTimestamp', 'endTimestamp');
    if (addresses.length === 0 && l1ValidationId === undefined) {
      if (txTypes.length > 0) throw badRequest('txTypes requires an addresses filter (or l1ValidationId)');
      if (startTimestamp !== undefined) throw badRequest('startTimestamp requires an addresses filter (or l1ValidationId)');
      if (endTimestamp !== undefined) throw badRequest('endTimestamp requires an addresses filter (or l1ValidationId)');
    }
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const order = sortOrder(ctx, 'desc');
    const { items, keyOf, records } = ctx.page.memo(() =>
      listTransactions(gen.ledger, chain, { addresses, txTypes, startTimestamp, endTimestamp, l1ValidationId, sortOrder: order }),
    );
    // Short pages: the fault hook may cut the page, and so does the UTXO volume threshold.
    const limit = ctx.page.shortLimit(size);
    const utxos = (t: PnTransaction) => records.get(t)?.utxoCount ?? 0;
    // UTXOs of the page so far (keyedFetch admits from the second item on, and only appends).
    let used = 0;
    const admit = (page: PnTransaction[], next: PnTransaction) => {
      if (page.length === 1) used = utxos(page[0]);
      if (used + utxos(next) > UTXOS_PER_PAGE_BUDGET) return false;
      used += utxos(next);
      return true;
    };
    const page = ctx.page.paginate<SortKey | null, PnTransaction>({ pageSize: limit, first: null, fetch: keyedFetch(items, keyOf, order, admit) });
    const views = page.items.map((t) => txView(gen.ledger, chain, records.get(t)!));
    // L1 validator details hold uint64 values (bigints): such a page is spelled with exact integers.
    const exact = page.items.some((t) => t.l1ValidatorDetails !== undefined);
    return { nextPageToken: page.nextPageToken, transactions: exact ? exactSpans(views) : views, chainInfo: chainInfo(chain, net) };
  },
};

const balances: RouteDef = {
  method: 'GET',
  path: `${BASE}/balances`,
  weight: WEIGHT.xl,
  service: 'data',
  handler(ctx) {
    const { net, gen } = pnNetwork(ctx);
    const chain = pnChain(ctx, net);
    const addresses = queryAddresses(ctx, net, { max: MAX_GET_ADDRESSES });
    const t = intParam(ctx.query, 'blockTimestamp', { min: 0 }) ?? gen.now;
    return { balances: balancesAt(gen.ledger, chain, addresses, t), chainInfo: chainInfo(chain, net) };
  },
};

const MAX_CAPACITY = 720_000_000_000_000_000n;
const MAX_SECONDS = 2_147_483_647;

const validators: RouteDef = {
  method: 'GET',
  path: '/v1/networks/:network/validators',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'validators' },
  handler(ctx) {
    const { net, gen } = pnNetwork(ctx);
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const q = ctx.query;
    const subnetRaw = q.get('subnetId');
    const subnetId = subnetRaw ? cb58Id(subnetRaw, 'subnetId') : undefined;
    const sortBy = enumParam(q, 'sortBy', VALIDATOR_SORTS) ?? 'blockIndex';
    if (sortBy === 'delegationFee' && (net !== 'mainnet' || subnetId !== PRIMARY_NETWORK_ID)) {
      throw badRequest(`sortBy=delegationFee applies only to mainnet with subnetId=${PRIMARY_NETWORK_ID}`);
    }
    const minDelegationCapacity = bigIntParam(q, 'minDelegationCapacity', { min: 0n, max: MAX_CAPACITY });
    const maxDelegationCapacity = bigIntParam(q, 'maxDelegationCapacity', { min: 0n, max: MAX_CAPACITY });
    ordered(minDelegationCapacity, maxDelegationCapacity, 'minDelegationCapacity', 'maxDelegationCapacity');
    const minTimeRemaining = numberParam(q, 'minTimeRemaining', 0, MAX_SECONDS);
    const maxTimeRemaining = numberParam(q, 'maxTimeRemaining', 0, MAX_SECONDS);
    ordered(minTimeRemaining, maxTimeRemaining, 'minTimeRemaining', 'maxTimeRemaining');
    const minFee = numberParam(q, 'minFeePercentage', 2, 100);
    const maxFee = numberParam(q, 'maxFeePercentage', 2, 100);
    ordered(minFee, maxFee, 'minFeePercentage', 'maxFeePercentage');
    const minUptime = numberParam(q, 'minUptimePerformance', 0, 100) ?? 90;
    const maxUptime = numberParam(q, 'maxUptimePerformance', 0, 100) ?? 100;
    ordered(minUptime, maxUptime, 'minUptimePerformance', 'maxUptimePerformance');
    const nodeIds = listParam(q, 'nodeIds');
    const order = sortOrder(ctx, 'desc');
    const { items, keyOf } = ctx.page.memo(() => listValidators(gen, {
      nodeIds,
      sortBy,
      sortOrder: order,
      validationStatus: enumParam(q, 'validationStatus', ['completed', 'active', 'pending', 'removed'] as const),
      minDelegationCapacity,
      maxDelegationCapacity,
      minTimeRemaining,
      maxTimeRemaining,
      fee: minFee !== undefined || maxFee !== undefined ? { min: minFee ?? 2, max: maxFee ?? 100 } : undefined,
      minUptimePerformance: minUptime,
      maxUptimePerformance: maxUptime,
      subnetId,
    }));
    const page = walk(ctx, size, items, keyOf, order);
    const out = new JsonItemWriter(page.items.length);
    const set = validatorSet(gen.validations, gen.now);
    for (const v of page.items) {
      writeValidator(out.begin(), v, set);
      out.end();
    }
    return { nextPageToken: page.nextPageToken, validators: out.items };
  },
};

function rewardFilter(ctx: RequestContext) {
  const { net, gen } = pnNetwork(ctx);
  const addresses = queryAddresses(ctx, net, { max: MAX_GET_ADDRESSES });
  const nodeIds = listParam(ctx.query, 'nodeIds').map((n) => nodeId(n, 'nodeIds'));
  if (addresses.length === 0 && nodeIds.length === 0) throw badRequest('addresses or nodeIds is required');
  const size = pageSize(ctx.query, { def: 10, max: 100 });
  return { gen, size, filter: { addresses, nodeIds, sortOrder: sortOrder(ctx, 'desc') } };
}

const historicalRewards: RouteDef = {
  method: 'GET',
  path: '/v1/networks/:network/rewards',
  weight: WEIGHT.xl,
  service: 'data',
  list: { itemsKey: 'historicalRewards' },
  handler(ctx) {
    const { gen, size, filter } = rewardFilter(ctx);
    const currency = enumParam(ctx.query, 'currency', CURRENCIES) ?? 'usd';
    const { items, keyOf } = ctx.page.memo(() => listHistoricalRewards(gen, filter, currency));
    const page = walk(ctx, size, items, keyOf, filter.sortOrder);
    return { nextPageToken: page.nextPageToken, historicalRewards: page.items };
  },
};

const pendingRewards: RouteDef = {
  method: 'GET',
  path: '/v1/networks/:network/rewards:listPending',
  weight: WEIGHT.xl,
  service: 'data',
  list: { itemsKey: 'pendingRewards' },
  handler(ctx) {
    const { gen, size, filter } = rewardFilter(ctx);
    const { items, keyOf } = ctx.page.memo(() => listPendingRewards(gen, filter));
    const page = walk(ctx, size, items, keyOf, filter.sortOrder);
    return { nextPageToken: page.nextPageToken, pendingRewards: page.items };
  },
};

const vertexKey = (v: Vertex): SortKey => [v.vertexIndex];

const vertices: RouteDef = {
  method: 'GET',
  path: `${BASE}/vertices`,
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'vertices' },
  handler(ctx) {
    const { net, gen } = pnNetwork(ctx);
    const chain = pnChain(ctx, net, 'x-chain');
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const items = ctx.page.memo(() => [...gen.ledger.vertices].reverse());
    const page = walk(ctx, size, items, vertexKey, 'desc');
    return { nextPageToken: page.nextPageToken, vertices: page.items, chainInfo: chainInfo(chain, net) };
  },
};

/** Vertices at exactly `vertexHeight` (the DAG can hold several per height), by vertexIndex. */
const verticesByHeight: RouteDef = {
  method: 'GET',
  path: `${BASE}/vertices:listByHeight`,
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'vertices' },
  handler(ctx) {
    const { net, gen } = pnNetwork(ctx);
    const chain = pnChain(ctx, net, 'x-chain');
    const height = intParam(ctx.query, 'vertexHeight', { min: 0 });
    if (height === undefined) throw badRequest('vertexHeight is required');
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const order = sortOrder(ctx, 'asc');
    const items = ctx.page.memo(() => {
      const atHeight = gen.ledger.vertices.filter((v) => v.vertexHeight === height);
      return order === 'desc' ? atHeight.reverse() : atHeight;
    });
    const page = walk(ctx, size, items, vertexKey, order);
    return { nextPageToken: page.nextPageToken, vertices: page.items, chainInfo: chainInfo(chain, net) };
  },
};

export const primaryRoutes: RouteDef[] = [utxosPost, utxosGet, transactions, balances, validators, historicalRewards, pendingRewards, vertices, verticesByHeight];
