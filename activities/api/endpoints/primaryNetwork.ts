import { CU, commaList, defineEndpoint, defineList, seg, type PageParams } from '../endpoint.ts';
import type { ENUMERATIONS } from '../schemas/enumerations.ts';
import {
  BalancesResponse,
  HistoricalRewardsPage,
  PendingRewardsPage,
  PrimaryNetworkTransactionsPage,
  UtxosPage,
  ValidatorsPage,
  VerticesPage,
} from '../schemas/primaryNetwork.ts';

/** Primary-network endpoints (P-, X-, C-chain). Weights from the public service's CU table. */

export type Network = 'mainnet' | 'fuji' | 'testnet';
type SortOrder = 'asc' | 'desc';
type AddressList = string | readonly string[];

export interface ChainParams {
  network: Network;
  /** p-chain, x-chain, c-chain or a base58 blockchain id. */
  blockchainId: string;
}

export interface UtxoQuery extends PageParams {
  assetId?: string;
  minUtxoAmount?: number | string;
  includeSpent?: boolean;
  sortBy?: 'timestamp' | 'amount';
  sortOrder?: SortOrder;
}

const chainPath = (p: ChainParams, tail: string) => `/v1/networks/${seg(p.network)}/blockchains/${seg(p.blockchainId)}/${tail}`;

const utxoQuery = (p: UtxoQuery) => ({
  pageToken: p.pageToken,
  pageSize: p.pageSize,
  assetId: p.assetId,
  minUtxoAmount: p.minUtxoAmount === undefined ? undefined : String(p.minUtxoAmount),
  includeSpent: p.includeSpent,
  sortBy: p.sortBy,
  sortOrder: p.sortOrder,
});

/** POST list UTXOs (v2): addresses in the body, pageSize up to 1024. */
export const listUtxosV2 = defineList({
  name: 'pn.listUtxosV2',
  method: 'POST',
  service: 'data',
  weight: CU.xl,
  maxPageSize: 1024,
  listKey: 'utxos',
  schema: UtxosPage,
  build: (p: ChainParams & UtxoQuery & { addresses: AddressList }) => ({ path: chainPath(p, 'utxos'), query: utxoQuery(p), body: { addresses: commaList(p.addresses) } }),
});

export const listUtxos = defineList({
  name: 'pn.listUtxos',
  method: 'GET',
  service: 'data',
  weight: CU.xl,
  maxPageSize: 100,
  listKey: 'utxos',
  schema: UtxosPage,
  build: (p: ChainParams & UtxoQuery & { addresses?: AddressList }) => ({ path: chainPath(p, 'utxos'), query: { addresses: commaList(p.addresses), ...utxoQuery(p) } }),
});

export const listTransactions = defineList({
  name: 'pn.listTransactions',
  method: 'GET',
  service: 'data',
  weight: CU.xl,
  maxPageSize: 100,
  listKey: 'transactions',
  schema: PrimaryNetworkTransactionsPage,
  build: (
    p: ChainParams &
      PageParams & { addresses?: AddressList; l1ValidationId?: string; txTypes?: readonly string[]; startTimestamp?: number; endTimestamp?: number; sortOrder?: SortOrder },
  ) => ({
    path: chainPath(p, 'transactions'),
    query: {
      addresses: commaList(p.addresses),
      l1ValidationId: p.l1ValidationId,
      txTypes: p.txTypes,
      startTimestamp: p.startTimestamp,
      endTimestamp: p.endTimestamp,
      pageToken: p.pageToken,
      pageSize: p.pageSize,
      sortOrder: p.sortOrder,
    },
  }),
});

export const getBalances = defineEndpoint({
  name: 'pn.getBalances',
  method: 'GET',
  service: 'data',
  weight: CU.xl,
  schema: BalancesResponse,
  build: (p: ChainParams & { blockTimestamp?: number; addresses?: AddressList }) => ({
    path: chainPath(p, 'balances'),
    query: { blockTimestamp: p.blockTimestamp, addresses: commaList(p.addresses) },
  }),
});

export interface ValidatorsQuery extends PageParams {
  network: Network;
  nodeIds?: AddressList;
  sortBy?: 'blockIndex' | 'delegationCapacity' | 'timeRemaining' | 'delegationFee' | 'uptimePerformance';
  sortOrder?: SortOrder;
  /** A filter by the enumeration's known values (a new status cannot be asked for until it is declared). */
  validationStatus?: (typeof ENUMERATIONS.validationStatus)[number];
  minDelegationCapacity?: string;
  maxDelegationCapacity?: string;
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  minFeePercentage?: number;
  maxFeePercentage?: number;
  minUptimePerformance?: number;
  maxUptimePerformance?: number;
  subnetId?: string;
}

export const listValidators = defineList({
  name: 'pn.listValidators',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'validators',
  schema: ValidatorsPage,
  build: ({ network, nodeIds, ...rest }: ValidatorsQuery) => ({ path: `/v1/networks/${seg(network)}/validators`, query: { ...rest, nodeIds: commaList(nodeIds) } }),
});

export interface RewardsQuery extends PageParams {
  network: Network;
  /** At least one of addresses or nodeIds is required. */
  addresses?: AddressList;
  nodeIds?: AddressList;
  sortOrder?: SortOrder;
}

export const listHistoricalRewards = defineList({
  name: 'pn.listHistoricalRewards',
  method: 'GET',
  service: 'data',
  weight: CU.xl,
  maxPageSize: 100,
  listKey: 'historicalRewards',
  schema: HistoricalRewardsPage,
  build: (p: RewardsQuery & { currency?: string }) => ({
    path: `/v1/networks/${seg(p.network)}/rewards`,
    query: { addresses: commaList(p.addresses), nodeIds: commaList(p.nodeIds), pageToken: p.pageToken, pageSize: p.pageSize, sortOrder: p.sortOrder, currency: p.currency },
  }),
});

export const listPendingRewards = defineList({
  name: 'pn.listPendingRewards',
  method: 'GET',
  service: 'data',
  weight: CU.xl,
  maxPageSize: 100,
  listKey: 'pendingRewards',
  schema: PendingRewardsPage,
  build: (p: RewardsQuery) => ({
    path: `/v1/networks/${seg(p.network)}/rewards:listPending`,
    query: { addresses: commaList(p.addresses), nodeIds: commaList(p.nodeIds), pageToken: p.pageToken, pageSize: p.pageSize, sortOrder: p.sortOrder },
  }),
});

export const listVertices = defineList({
  name: 'pn.listVertices',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'vertices',
  schema: VerticesPage,
  build: (p: ChainParams & PageParams) => ({ path: chainPath(p, 'vertices'), query: { pageToken: p.pageToken, pageSize: p.pageSize } }),
});

export const listVerticesByHeight = defineList({
  name: 'pn.listVerticesByHeight',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'vertices',
  schema: VerticesPage,
  build: (p: ChainParams & PageParams & { vertexHeight: number; sortOrder?: SortOrder }) => ({
    path: chainPath(p, 'vertices:listByHeight'),
    query: { vertexHeight: p.vertexHeight, pageToken: p.pageToken, pageSize: p.pageSize, sortOrder: p.sortOrder },
  }),
});
