import { z } from 'zod';
import { decimal, enumOf, integer, opt, strings } from './fields.ts';

/** Error body. `message` is a string or, on the public service, an array of strings. */
export const ErrorBody = z.looseObject({
  message: opt(z.union([z.string(), z.array(z.string())])),
  statusCode: opt(integer),
  error: opt(z.string()),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ChainInfo = z.looseObject({ chainName: opt(z.string()), network: opt(z.string()) });
export type ChainInfo = z.infer<typeof ChainInfo>;

export const Money = z.looseObject({ currencyCode: opt(z.string()), value: opt(decimal) });
export type Money = z.infer<typeof Money>;

export const AssetAmount = z.looseObject({
  assetId: opt(z.string()),
  name: opt(z.string()),
  symbol: opt(z.string()),
  denomination: opt(integer),
  type: opt(enumOf('assetType')),
  amount: opt(decimal),
});
export type AssetAmount = z.infer<typeof AssetAmount>;

export const BalanceAmount = AssetAmount.extend({ utxoCount: opt(integer) });
export type BalanceAmount = z.infer<typeof BalanceAmount>;

export const AtomicMemoryBalanceAmount = BalanceAmount.extend({ sharedWithChainId: opt(z.string()), status: opt(z.string()) });
export type AtomicMemoryBalanceAmount = z.infer<typeof AtomicMemoryBalanceAmount>;

export const RewardAmount = AssetAmount.extend({ historicalPrice: opt(Money) });
export type RewardAmount = z.infer<typeof RewardAmount>;

export const BlsCredentials = z.looseObject({ publicKey: opt(z.string()), proofOfPossession: opt(z.string()) });
export type BlsCredentials = z.infer<typeof BlsCredentials>;

export const EvmAddressInfo = z.looseObject({
  name: opt(z.string()),
  symbol: opt(z.string()),
  decimals: opt(integer),
  logoUri: opt(z.string()),
  address: opt(z.string()),
});
export type EvmAddressInfo = z.infer<typeof EvmAddressInfo>;

export const NativeTokenBalance = z.looseObject({
  name: opt(z.string()),
  symbol: opt(z.string()),
  decimals: opt(integer),
  logoUri: opt(z.string()),
  chainId: opt(z.string()),
  price: opt(Money),
  balance: opt(decimal),
  balanceValue: opt(Money),
});
export type NativeTokenBalance = z.infer<typeof NativeTokenBalance>;

/** Every list response carries this; absent (public service) or empty on the last page. */
export const pageToken = opt(z.string());

export { strings };
