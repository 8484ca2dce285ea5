import { CU, defineEndpoint, defineList, seg, type PageParams } from '../endpoint.ts';
import {
  BlocksPage,
  ChainsResponse,
  Erc1155BalancesPage,
  Erc20BalancesPage,
  Erc721BalancesPage,
  NativeBalanceResponse,
  NativeTransactionsPage,
  NftTokenResponse,
  TransactionDetail,
  TransfersPage,
} from '../schemas/evm.ts';

/** EVM-chain endpoints. Blocks are Small (10 CU); transactions, balances and transfers Medium (20 CU). */

export interface AddressParams {
  /** EVM chain id (e.g. "43114") or blockchain id. */
  chainId: string;
  address: string;
}

interface BlockRange {
  /** Inclusive. */
  startBlock?: number;
  /** Exclusive. */
  endBlock?: number;
}

const addressPath = (p: AddressParams, tail: string) => `/v1/chains/${seg(p.chainId)}/addresses/${seg(p.address)}/${tail}`;

export const getNativeBalance = defineEndpoint({
  name: 'evm.getNativeBalance',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  schema: NativeBalanceResponse,
  build: (p: AddressParams & { blockNumber?: string; currency?: string }) => ({
    path: addressPath(p, 'balances:getNative'),
    query: { blockNumber: p.blockNumber, currency: p.currency },
  }),
});

export const listErc20Balances = defineList({
  name: 'evm.listErc20Balances',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 500,
  listKey: 'erc20TokenBalances',
  schema: Erc20BalancesPage,
  build: (p: AddressParams & PageParams & { blockNumber?: string; filterSpamTokens?: boolean; contractAddresses?: string | readonly string[]; currency?: string }) => ({
    path: addressPath(p, 'balances:listErc20'),
    query: {
      blockNumber: p.blockNumber,
      pageToken: p.pageToken,
      pageSize: p.pageSize,
      filterSpamTokens: p.filterSpamTokens,
      contractAddresses: typeof p.contractAddresses === 'string' || p.contractAddresses === undefined ? p.contractAddresses : p.contractAddresses.join(','),
      currency: p.currency,
    },
  }),
});

export const listErc721Balances = defineList({
  name: 'evm.listErc721Balances',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 500,
  listKey: 'erc721TokenBalances',
  schema: Erc721BalancesPage,
  build: (p: AddressParams & PageParams & { contractAddress?: string }) => ({
    path: addressPath(p, 'balances:listErc721'),
    query: { pageToken: p.pageToken, pageSize: p.pageSize, contractAddress: p.contractAddress },
  }),
});

export const listErc1155Balances = defineList({
  name: 'evm.listErc1155Balances',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 500,
  listKey: 'erc1155TokenBalances',
  schema: Erc1155BalancesPage,
  build: (p: AddressParams & PageParams & { blockNumber?: string; contractAddress?: string }) => ({
    path: addressPath(p, 'balances:listErc1155'),
    query: { blockNumber: p.blockNumber, pageToken: p.pageToken, pageSize: p.pageSize, contractAddress: p.contractAddress },
  }),
});

/** Transfers of an ERC-20/721/1155 contract. */
export const listTransfers = defineList({
  name: 'evm.listTransfers',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'transfers',
  schema: TransfersPage,
  build: (p: AddressParams & PageParams & BlockRange) => ({
    path: `/v1/chains/${seg(p.chainId)}/tokens/${seg(p.address)}/transfers`,
    query: { startBlock: p.startBlock, endBlock: p.endBlock, pageToken: p.pageToken, pageSize: p.pageSize },
  }),
});

export const listNativeTransactions = defineList({
  name: 'evm.listNativeTransactions',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'transactions',
  schema: NativeTransactionsPage,
  build: (p: AddressParams & PageParams & BlockRange) => ({
    path: addressPath(p, 'transactions:listNative'),
    query: { startBlock: p.startBlock, endBlock: p.endBlock, pageToken: p.pageToken, pageSize: p.pageSize },
  }),
});

export const listLatestTransactions = defineList({
  name: 'evm.listLatestTransactions',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  maxPageSize: 100,
  listKey: 'transactions',
  schema: NativeTransactionsPage,
  build: (p: { chainId: string; status?: 'failed' | 'success' } & PageParams) => ({
    path: `/v1/chains/${seg(p.chainId)}/transactions`,
    query: { pageToken: p.pageToken, pageSize: p.pageSize, status: p.status },
  }),
});

export const getTransaction = defineEndpoint({
  name: 'evm.getTransaction',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  schema: TransactionDetail,
  build: (p: { chainId: string; txHash: string }) => ({ path: `/v1/chains/${seg(p.chainId)}/transactions/${seg(p.txHash)}`, query: {} }),
});

export const listBlocks = defineList({
  name: 'evm.listBlocks',
  method: 'GET',
  service: 'data',
  weight: CU.small,
  maxPageSize: 100,
  listKey: 'blocks',
  schema: BlocksPage,
  build: (p: { chainId: string } & PageParams) => ({ path: `/v1/chains/${seg(p.chainId)}/blocks`, query: { pageToken: p.pageToken, pageSize: p.pageSize } }),
});

/** The EVM chains the service indexes (planning compares them with the config: a new one is drift). Weight: Free. */
export const listChains = defineEndpoint({
  name: 'evm.listChains',
  method: 'GET',
  service: 'data',
  weight: CU.free,
  schema: ChainsResponse,
  build: () => ({ path: '/v1/chains', query: {} }),
});

/** NFT token details. Weight not published; assumed Medium like the other EVM reads. */
export const getNftToken = defineEndpoint({
  name: 'evm.getNftToken',
  method: 'GET',
  service: 'data',
  weight: CU.medium,
  schema: NftTokenResponse,
  build: (p: { chainId: string; address: string; tokenId: string }) => ({
    path: `/v1/chains/${seg(p.chainId)}/nfts/collections/${seg(p.address)}/tokens/${seg(p.tokenId)}`,
    query: {},
  }),
});
