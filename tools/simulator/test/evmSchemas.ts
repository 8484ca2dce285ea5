import { z } from 'zod';

/**
 * The interface's EVM and holder-metrics shapes (spec tables), strict about the fields the
 * simulator always sends: decimal strings for quantities, integers for timestamps and counts.
 */
const dec = z.string().regex(/^\d+$/);
const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`));
const address = hex(20);
const hash = hex(32);
const int = z.number().int();
const money = z.object({ currencyCode: z.string(), value: z.string().regex(/^\d+\.\d{2}$/) }).strict();
const addressInfo = z.object({ address, name: z.string().optional(), symbol: z.string().optional(), decimals: int.optional(), logoUri: z.string().optional() }).strict();

export const Block = z
  .object({
    chainId: z.string(), blockNumber: dec, blockHash: hash, baseFee: dec, gasUsed: dec, gasLimit: dec, gasCost: dec, parentHash: hash,
    feesSpent: dec, cumulativeTransactions: dec, blockTimestamp: int, txCount: int,
    // The public service's Granite fields, on blocks after the upgrade only.
    blockTimestampMilliseconds: int.optional(), blockMinDelayExcess: int.optional(),
  })
  .strict();

export const NativeTransaction = z
  .object({
    blockNumber: dec, blockTimestamp: int, blockHash: hash, chainId: z.string(), blockIndex: int, txHash: hash,
    txStatus: z.enum(['0', '1']), txType: int, gasLimit: dec, gasUsed: dec, gasPrice: dec, nonce: dec,
    from: addressInfo, to: addressInfo,
    method: z.object({ callType: z.enum(['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION']), methodHash: z.string(), methodName: z.string() }).strict(),
    value: dec,
  })
  .strict();

const erc20Token = z.object({ address, name: z.string(), symbol: z.string(), decimals: int, logoUri: z.string(), ercType: z.literal('ERC-20'), price: money }).strict();
const nftMetadata = z.object({
  indexStatus: z.string(), metadataLastUpdatedTimestamp: int, name: z.string().optional(), symbol: z.string().optional(), imageUri: z.string().optional(),
  description: z.string().optional(), animationUri: z.string().optional(), externalUrl: z.string().optional(), background: z.string().optional(),
  attributes: z.string().optional(), decimals: int.optional(), properties: z.string().optional(),
}).strict();
const erc721Token = z.object({ address, name: z.string(), symbol: z.string(), ercType: z.literal('ERC-721'), tokenId: dec, tokenUri: z.string(), metadata: nftMetadata }).strict();
const erc1155Token = z.object({ address, ercType: z.literal('ERC-1155'), tokenId: dec, tokenUri: z.string(), metadata: nftMetadata }).strict();

const transferBase = { from: addressInfo, to: addressInfo, logIndex: int };
export const ErcTransfer = z.union([
  z.object({ blockNumber: dec, blockTimestamp: int, blockHash: hash, txHash: hash, ...transferBase, value: dec, erc20Token }).strict(),
  z.object({ blockNumber: dec, blockTimestamp: int, blockHash: hash, txHash: hash, ...transferBase, erc721Token }).strict(),
  z.object({ blockNumber: dec, blockTimestamp: int, blockHash: hash, txHash: hash, ...transferBase, value: dec, erc1155Token }).strict(),
]);

export const TransactionDetail = z
  .object({
    erc20Transfers: z.array(z.object({ ...transferBase, value: dec, erc20Token }).strict()),
    erc721Transfers: z.array(z.object({ ...transferBase, erc721Token }).strict()),
    erc1155Transfers: z.array(z.object({ ...transferBase, value: dec, erc1155Token }).strict()),
    internalTransactions: z.array(
      z.object({ from: addressInfo, to: addressInfo, internalTxType: z.string(), value: dec, isReverted: z.boolean(), gasUsed: dec, gasLimit: dec }).strict(),
    ),
    networkTokenDetails: z.object({
      networkToken: z.object({ name: z.string(), symbol: z.string(), decimals: int, logoUri: z.string(), description: z.string() }).strict(),
      currentPrice: money,
      historicalPrice: money,
    }).strict(),
    nativeTransaction: NativeTransaction.extend({ input: z.string(), baseFeePerGas: dec, maxFeePerGas: dec, maxPriorityFeePerGas: dec }).strict(),
    teleporterMessageInfo: z
      .object({ teleporterMessageId: hash, direction: z.enum(['SOURCE_TRANSACTION', 'DESTINATION_TRANSACTION']), sourceChainId: z.string(), destinationChainId: z.string() })
      .strict()
      .optional(),
  })
  .strict();

export const NativeTokenBalance = z
  .object({ name: z.string(), symbol: z.string(), decimals: int, logoUri: z.string(), chainId: z.string(), price: money, balance: dec, balanceValue: money })
  .strict();

export const Erc20TokenBalance = erc20Token
  .extend({ chainId: z.string(), balance: dec, balanceValue: money, tokenReputation: z.enum(['Malicious', 'Benign']).nullable() })
  .strict();
export const Erc721TokenBalance = erc721Token.extend({ ownerAddress: address, chainId: z.string() }).strict();
export const Erc1155TokenBalance = erc1155Token.extend({ chainId: z.string(), balance: dec }).strict();
export const NftToken = z.union([erc721Token.extend({ ownerAddress: address }).strict(), erc1155Token]);
export const HolderEntry = z.object({ address, sortKey: dec }).strict();

export const ErrorBody = z.object({ message: z.union([z.string(), z.array(z.string())]), statusCode: int, error: z.string() }).strict();

/** A list page: the items array under `key`, and nextPageToken absent or a non-empty string. */
export function listPage(key: string, item: z.ZodType, extra: z.ZodRawShape = {}) {
  return z.object({ nextPageToken: z.string().min(1).optional(), [key]: z.array(item), ...extra }).strict();
}
