import * as primaryNetwork from './primaryNetwork.ts';
import * as evm from './evm.ts';
import * as metrics from './metrics.ts';
import * as signatureAggregation from './signatureAggregation.ts';

/** Every endpoint of the interface, by family. */
export const endpoints = {
  primaryNetwork: {
    listUtxosV2: primaryNetwork.listUtxosV2,
    listUtxos: primaryNetwork.listUtxos,
    listTransactions: primaryNetwork.listTransactions,
    getBalances: primaryNetwork.getBalances,
    listValidators: primaryNetwork.listValidators,
    listHistoricalRewards: primaryNetwork.listHistoricalRewards,
    listPendingRewards: primaryNetwork.listPendingRewards,
    listVertices: primaryNetwork.listVertices,
    listVerticesByHeight: primaryNetwork.listVerticesByHeight,
  },
  evm: {
    getNativeBalance: evm.getNativeBalance,
    listErc20Balances: evm.listErc20Balances,
    listErc721Balances: evm.listErc721Balances,
    listErc1155Balances: evm.listErc1155Balances,
    listTransfers: evm.listTransfers,
    listNativeTransactions: evm.listNativeTransactions,
    listLatestTransactions: evm.listLatestTransactions,
    getTransaction: evm.getTransaction,
    listBlocks: evm.listBlocks,
    listChains: evm.listChains,
    getNftToken: evm.getNftToken,
  },
  metrics: { listHolders: metrics.listHolders },
  signatureAggregation: { aggregateSignatures: signatureAggregation.aggregateSignatures },
} as const;

export type { Network, ChainParams, UtxoQuery, ValidatorsQuery, RewardsQuery } from './primaryNetwork.ts';
export type { AddressParams } from './evm.ts';
export type { AggregateSignaturesBody } from './signatureAggregation.ts';
