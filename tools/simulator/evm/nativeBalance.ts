import { hash32, intIn, stringHash } from '../world/hash.ts';
import { K } from './chain.ts';
import type { EvmChainModel } from './chainModel.ts';
import type { Currency } from './money.ts';
import { NATIVE_USD_PRICE, money, valueOf } from './money.ts';

/**
 * Native balance of an address at a block: an allocation plus a steady accrual per block for the
 * world's addresses, 0 for any other address. Deterministic; not derived from native tx values
 * (the interface offers no way to check that, and it would cost O(history) per request).
 */
export function nativeBalance(model: EvmChainModel, address: string, block: number): bigint {
  const slot = model.pool.slotOf(address);
  if (slot === undefined) return 0n;
  const d = model.chain.domain;
  const h = hash32(d, K.native, stringHash(address));
  const alloc = BigInt(intIn(1, 100_000, d, K.native, slot)) * 10n ** 16n + BigInt(h);
  return alloc + BigInt(block) * BigInt(h % 1000) * 1_000_000_000n;
}

/** NativeTokenBalance of the interface. */
export function nativeTokenBalanceJson(model: EvmChainModel, address: string, block: number, currency: Currency): Record<string, unknown> {
  const token = model.spec.token;
  const price = NATIVE_USD_PRICE[token.symbol] ?? 0;
  const balance = nativeBalance(model, address, block);
  return {
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
    logoUri: token.logoUri,
    chainId: model.spec.chainId,
    price: money(price, currency),
    balance: String(balance),
    balanceValue: valueOf(balance, token.decimals, price, currency),
  };
}
