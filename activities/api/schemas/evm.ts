import { z } from 'zod';
import { EvmAddressInfo, Money, NativeTokenBalance, pageToken } from './common.ts';
import { boolean, decimal, enumOf, integer, opt } from './fields.ts';

/** EVM-chain resources. uint256 quantities stay decimal strings: never rounded, never numbers. */

export const Erc20Token = z.looseObject({
  address: z.string(),
  name: opt(z.string()),
  symbol: opt(z.string()),
  decimals: opt(integer),
  logoUri: opt(z.string()),
  ercType: opt(enumOf('ercType')),
  price: opt(Money),
});
export type Erc20Token = z.infer<typeof Erc20Token>;

export const Erc20TokenBalance = Erc20Token.extend({
  chainId: opt(z.string()),
  balance: opt(decimal),
  balanceValue: opt(Money),
  /** Malicious | Benign | null. */
  tokenReputation: opt(enumOf('tokenReputation')),
});
export type Erc20TokenBalance = z.infer<typeof Erc20TokenBalance>;

export const NftMetadata = z.looseObject({
  indexStatus: opt(enumOf('nftIndexStatus')),
  metadataLastUpdatedTimestamp: opt(integer),
  name: opt(z.string()),
  symbol: opt(z.string()),
  imageUri: opt(z.string()),
  description: opt(z.string()),
  animationUri: opt(z.string()),
  externalUrl: opt(z.string()),
  background: opt(z.string()),
  attributes: opt(z.unknown()),
  decimals: opt(integer),
  properties: opt(z.unknown()),
});
export type NftMetadata = z.infer<typeof NftMetadata>;

export const Erc721Token = z.looseObject({
  address: z.string(),
  tokenId: z.string(),
  name: opt(z.string()),
  symbol: opt(z.string()),
  ercType: opt(enumOf('ercType')),
  tokenUri: opt(z.string()),
  metadata: opt(NftMetadata),
  ownerAddress: opt(z.string()),
});
export type Erc721Token = z.infer<typeof Erc721Token>;

export const Erc1155Token = z.looseObject({
  address: z.string(),
  tokenId: z.string(),
  ercType: opt(enumOf('ercType')),
  tokenUri: opt(z.string()),
  metadata: opt(NftMetadata),
});
export type Erc1155Token = z.infer<typeof Erc1155Token>;

export const Erc721TokenBalance = Erc721Token.extend({ chainId: opt(z.string()) });
export type Erc721TokenBalance = z.infer<typeof Erc721TokenBalance>;

export const Erc1155TokenBalance = Erc1155Token.extend({ chainId: opt(z.string()), balance: opt(decimal) });
export type Erc1155TokenBalance = z.infer<typeof Erc1155TokenBalance>;

export const NativeTransaction = z.looseObject({
  txHash: z.string(),
  blockNumber: opt(decimal),
  blockTimestamp: opt(integer),
  blockHash: opt(z.string()),
  chainId: opt(z.string()),
  blockIndex: opt(integer),
  txStatus: opt(z.string()),
  txType: opt(integer),
  gasLimit: opt(decimal),
  gasUsed: opt(decimal),
  gasPrice: opt(decimal),
  nonce: opt(decimal),
  from: opt(EvmAddressInfo),
  to: opt(EvmAddressInfo),
  method: opt(z.looseObject({ callType: opt(enumOf('callType')), methodHash: opt(z.string()), methodName: opt(z.string()) })),
  value: opt(decimal),
});
export type NativeTransaction = z.infer<typeof NativeTransaction>;

/** The single-transaction view of a native transaction. */
export const NativeTransactionDetail = NativeTransaction.extend({
  input: opt(z.string()),
  baseFeePerGas: opt(decimal),
  maxFeePerGas: opt(decimal),
  maxPriorityFeePerGas: opt(decimal),
});
export type NativeTransactionDetail = z.infer<typeof NativeTransactionDetail>;

/** An entry of the token-transfers list. */
export const ErcTransfer = z.looseObject({
  txHash: z.string(),
  logIndex: integer,
  blockNumber: opt(decimal),
  blockTimestamp: opt(integer),
  blockHash: opt(z.string()),
  from: opt(EvmAddressInfo),
  to: opt(EvmAddressInfo),
  value: opt(decimal),
  erc20Token: opt(Erc20Token),
  // Contract transfers lists of ERC-721/1155 contracts carry these instead.
  erc721Token: opt(Erc721Token),
  erc1155Token: opt(Erc1155Token),
});
export type ErcTransfer = z.infer<typeof ErcTransfer>;

const transferBase = { from: opt(EvmAddressInfo), to: opt(EvmAddressInfo), logIndex: opt(integer) };
export const Erc20TransferDetail = z.looseObject({ ...transferBase, value: opt(decimal), erc20Token: opt(Erc20Token) });
export type Erc20TransferDetail = z.infer<typeof Erc20TransferDetail>;
export const Erc721TransferDetail = z.looseObject({ ...transferBase, erc721Token: opt(Erc721Token) });
export type Erc721TransferDetail = z.infer<typeof Erc721TransferDetail>;
export const Erc1155TransferDetail = z.looseObject({ ...transferBase, value: opt(decimal), erc1155Token: opt(Erc1155Token) });
export type Erc1155TransferDetail = z.infer<typeof Erc1155TransferDetail>;

export const InternalTransaction = z.looseObject({
  from: opt(EvmAddressInfo),
  to: opt(EvmAddressInfo),
  internalTxType: opt(enumOf('internalTxType')),
  value: opt(decimal),
  isReverted: opt(boolean),
  gasUsed: opt(decimal),
  gasLimit: opt(decimal),
});
export type InternalTransaction = z.infer<typeof InternalTransaction>;

export const NetworkTokenDetails = z.looseObject({
  networkToken: opt(
    z.looseObject({ name: opt(z.string()), symbol: opt(z.string()), decimals: opt(integer), logoUri: opt(z.string()), description: opt(z.string()) }),
  ),
  currentPrice: opt(Money),
  historicalPrice: opt(Money),
});
export type NetworkTokenDetails = z.infer<typeof NetworkTokenDetails>;

export const TeleporterMessageInfo = z.looseObject({
  teleporterMessageId: opt(z.string()),
  direction: opt(enumOf('teleporterDirection')),
  sourceChainId: opt(z.string()),
  destinationChainId: opt(z.string()),
});
export type TeleporterMessageInfo = z.infer<typeof TeleporterMessageInfo>;

/** Response of get transaction: the native transaction is structural. */
export const TransactionDetail = z.looseObject({
  nativeTransaction: NativeTransactionDetail,
  erc20Transfers: opt(z.array(Erc20TransferDetail)),
  erc721Transfers: opt(z.array(Erc721TransferDetail)),
  erc1155Transfers: opt(z.array(Erc1155TransferDetail)),
  internalTransactions: opt(z.array(InternalTransaction)),
  networkTokenDetails: opt(NetworkTokenDetails),
  teleporterMessageInfo: opt(TeleporterMessageInfo),
});
export type TransactionDetail = z.infer<typeof TransactionDetail>;

export const Block = z.looseObject({
  blockHash: z.string(),
  blockNumber: decimal,
  chainId: opt(z.string()),
  baseFee: opt(decimal),
  gasUsed: opt(decimal),
  gasLimit: opt(decimal),
  gasCost: opt(decimal),
  parentHash: opt(z.string()),
  feesSpent: opt(decimal),
  cumulativeTransactions: opt(decimal),
  blockTimestamp: opt(integer),
  txCount: opt(integer),
  // Public service, blocks after the Granite upgrade only.
  blockTimestampMilliseconds: opt(integer),
  // A uint64 in the node: kept as exact text whatever its size.
  blockMinDelayExcess: opt(decimal),
});
export type Block = z.infer<typeof Block>;

// Responses.

export const NativeBalanceResponse = z.looseObject({ nativeTokenBalance: NativeTokenBalance });
export type NativeBalanceResponse = z.infer<typeof NativeBalanceResponse>;

export const Erc20BalancesPage = z.looseObject({
  nextPageToken: pageToken,
  nativeTokenBalance: opt(NativeTokenBalance),
  erc20TokenBalances: z.array(Erc20TokenBalance),
});
export type Erc20BalancesPage = z.infer<typeof Erc20BalancesPage>;

export const Erc721BalancesPage = z.looseObject({
  nextPageToken: pageToken,
  nativeTokenBalance: opt(NativeTokenBalance),
  erc721TokenBalances: z.array(Erc721TokenBalance),
});
export type Erc721BalancesPage = z.infer<typeof Erc721BalancesPage>;

export const Erc1155BalancesPage = z.looseObject({
  nextPageToken: pageToken,
  nativeTokenBalance: opt(NativeTokenBalance),
  erc1155TokenBalances: z.array(Erc1155TokenBalance),
});
export type Erc1155BalancesPage = z.infer<typeof Erc1155BalancesPage>;

export const TransfersPage = z.looseObject({ nextPageToken: pageToken, transfers: z.array(ErcTransfer) });
export type TransfersPage = z.infer<typeof TransfersPage>;

export const NativeTransactionsPage = z.looseObject({ nextPageToken: pageToken, transactions: z.array(NativeTransaction) });
export type NativeTransactionsPage = z.infer<typeof NativeTransactionsPage>;

export const BlocksPage = z.looseObject({ nextPageToken: pageToken, blocks: z.array(Block) });
export type BlocksPage = z.infer<typeof BlocksPage>;

/** Response of get NFT token details: the Erc721Token shape. */
export const NftTokenResponse = Erc721Token;
export type NftTokenResponse = z.infer<typeof NftTokenResponse>;

/** GET /v1/chains: the EVM chains the service indexes. */
export const ChainInfoEntry = z.looseObject({ chainId: z.string(), chainName: opt(z.string()), network: opt(z.string()), blockchainId: opt(z.string()) });
export const ChainsResponse = z.looseObject({ chains: z.array(ChainInfoEntry) });
export type ChainsResponse = z.infer<typeof ChainsResponse>;
