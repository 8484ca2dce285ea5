import type { EvmChainModel } from './chainModel.ts';
import { ZERO_ADDRESS } from './chain.ts';
import type { TokenLedger } from './tokens.ts';

export interface HolderRow {
  address: string;
  /** Balance at the end of the time frame. */
  balance: bigint;
}

/**
 * Holders of a contract whose balance exceeded `threshold` at some instant of [startTs, endTs]
 * (both inclusive). The balance at an instant counts every block with timestamp <= that instant;
 * balances only change at blocks, so it is checked at `startTs` and after each block in the frame.
 * Sorted by final balance descending, then address.
 */
export function computeHolders(model: EvmChainModel, ledger: TokenLedger, threshold: bigint, startTs: number, endTs: number, tipBlock: number): HolderRow[] {
  const { chain } = model;
  const clamp = (b: number): number => Math.min(b, tipBlock + 1);
  const bStart = clamp(chain.firstBlockAtOrAfter(startTs + 1));
  const bEnd = Math.max(bStart, clamp(chain.firstBlockAtOrAfter(endTs + 1)));
  const ks = ledger.transfersBefore(chain.txsBefore(bStart));
  const ke = ledger.transfersBefore(chain.txsBefore(bEnd));
  const state = ledger.balances(ks);
  const qualified = new Set<string>();
  for (const [a, v] of state) if (v > threshold) qualified.add(a);
  const changed = new Set<string>();
  let currentBlock = -1;
  const flush = (): void => {
    for (const a of changed) if ((state.get(a) ?? 0n) > threshold) qualified.add(a);
    changed.clear();
  };
  for (let k = ks; k < ke; k++) {
    const tr = ledger.transfer(k);
    const block = chain.locate(tr.g).block;
    if (block !== currentBlock) {
      flush();
      currentBlock = block;
    }
    if (tr.from !== ZERO_ADDRESS) state.set(tr.from, (state.get(tr.from) ?? 0n) - tr.value);
    state.set(tr.to, (state.get(tr.to) ?? 0n) + tr.value);
    changed.add(tr.from);
    changed.add(tr.to);
  }
  flush();
  qualified.delete(ZERO_ADDRESS);
  return [...qualified]
    .map((address) => ({ address, balance: state.get(address) ?? 0n }))
    .sort((a, b) => (a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : a.address < b.address ? -1 : 1));
}

/** Small cache: paging through one holder query recomputes nothing. */
const cache = new Map<string, HolderRow[]>();
const CACHE_SIZE = 32;

export function holdersCached(model: EvmChainModel, ledger: TokenLedger, threshold: bigint, startTs: number, endTs: number, tipBlock: number): HolderRow[] {
  const key = `${model.chain.domain}|${model.chain.baseHeight}|${model.chain.m}|${model.pool.P}|${model.pool.E}|${ledger.token.coins}|${ledger.token.t}|${threshold}|${startTs}|${endTs}|${tipBlock}`;
  let rows = cache.get(key);
  if (!rows) {
    rows = computeHolders(model, ledger, threshold, startTs, endTs, tipBlock);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, rows);
  }
  return rows;
}
