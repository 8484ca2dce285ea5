import type { EvmChainModel } from './chainModel.ts';
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
  const { chain, pool } = model;
  const { coins, perCall, residue } = ledger.token;
  const clamp = (b: number): number => Math.min(b, tipBlock + 1);
  const bStart = clamp(chain.firstBlockAtOrAfter(startTs + 1));
  const bEnd = Math.max(bStart, clamp(chain.firstBlockAtOrAfter(endTs + 1)));
  const ks = ledger.transfersBefore(chain.txsBefore(bStart));
  const ke = ledger.transfersBefore(chain.txsBefore(bEnd));
  // Replay on pool slots and unit indices (no per-transfer objects): this loop is the cost of
  // the endpoint, O(transfers in the frame), and is cached per query below.
  const values = Array.from({ length: coins }, (_, c) => ledger.coinValue(c));
  const owner = new Int32Array(coins).fill(-1);
  const bal: bigint[] = new Array<bigint>(pool.E).fill(0n);
  for (let c = 0; c < coins && c < ks; c++) {
    owner[c] = ledger.receiverSlot(c + Math.floor((ks - 1 - c) / coins) * coins);
    bal[owner[c]] += values[c];
  }
  const qualified = new Uint8Array(pool.E);
  for (let e = 0; e < pool.E; e++) if (bal[e] > threshold) qualified[e] = 1;
  const changed: number[] = [];
  const flush = (): void => {
    for (const e of changed) if (bal[e] > threshold) qualified[e] = 1;
    changed.length = 0;
  };
  let currentBlock = -1;
  let currentCall = -1;
  for (let k = ks; k < ke; k++) {
    const call = Math.floor(k / perCall);
    if (call !== currentCall) {
      currentCall = call;
      const block = chain.blockOf(residue + call * pool.P);
      if (block !== currentBlock) {
        flush();
        currentBlock = block;
      }
    }
    const c = k % coins;
    const to = ledger.receiverSlot(k);
    if (owner[c] >= 0) {
      bal[owner[c]] -= values[c];
      changed.push(owner[c]);
    }
    bal[to] += values[c];
    owner[c] = to;
    changed.push(to);
  }
  flush();
  const rows: HolderRow[] = [];
  for (let e = 0; e < pool.E; e++) if (qualified[e]) rows.push({ address: pool.eoa(e), balance: bal[e] });
  return rows.sort((a, b) => (a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : a.address < b.address ? -1 : 1));
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
