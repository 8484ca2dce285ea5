import type { NetworkGenerator } from './generator.ts';
import { sortByKey, type SortKey } from './keyedWalk.ts';
import type { Delegation, Validation } from './registry.ts';
import type { AssetAmount } from './types.ts';

export interface RewardFilter {
  addresses: string[];
  nodeIds: string[];
  sortOrder: 'asc' | 'desc';
}

const CURRENCY_PER_USD: Record<string, number> = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.36, chf: 0.88, clp: 940, cny: 7.2, czk: 23, dkk: 6.9, gbp: 0.79, hkd: 7.8, huf: 360, jpy: 150, nzd: 1.65,
};
export const CURRENCIES = Object.keys(CURRENCY_PER_USD);

/** A deterministic AVAX price history (USD), smooth by the day. */
export function avaxPriceUsd(timestamp: number): number {
  const day = Math.floor(timestamp / 86_400);
  return Math.round((25 + 8 * Math.sin(day / 9) + 3 * Math.cos(day / 3.7)) * 100) / 100;
}

export interface HistoricalReward {
  addresses: string[];
  txHash: string;
  amountStaked: string;
  nodeId: string;
  startTimestamp: number;
  endTimestamp: number;
  rewardType: string;
  utxoId: string;
  outputIndex: number;
  reward: AssetAmount & { historicalPrice: { currencyCode: string; value: string } };
  rewardTxHash: string;
}

/** Reward UTXOs of completed validations and delegations, one entry per reward output. */
export function listHistoricalRewards(gen: NetworkGenerator, f: RewardFilter, currency: string): { items: HistoricalReward[]; keyOf: (r: HistoricalReward) => SortKey } {
  const wanted = new Set(f.addresses);
  const nodes = new Set(f.nodeIds);
  const stakes: (Validation | Delegation)[] = [...gen.validations, ...gen.delegations].filter((s) => s.rewardTx);
  const items: HistoricalReward[] = [];
  const order = new Map<HistoricalReward, SortKey>();
  for (const s of stakes) {
    if (nodes.size > 0 && !nodes.has(s.nodeId)) continue;
    const rewardTx = s.rewardTx!;
    for (const u of rewardTx.tx.emittedUtxos) {
      if (!u.rewardType) continue;
      if (wanted.size > 0 && !u.addresses.some((a) => wanted.has(a))) continue;
      const price = avaxPriceUsd(rewardTx.tx.blockTimestamp) * CURRENCY_PER_USD[currency];
      const value = (Number(BigInt(u.amount)) / 1e9) * price;
      const entry: HistoricalReward = {
        addresses: u.addresses,
        txHash: s.tx.tx.txHash,
        amountStaked: s.stake.toString(),
        nodeId: s.nodeId,
        startTimestamp: s.start,
        endTimestamp: s.end,
        rewardType: u.rewardType,
        utxoId: u.utxoId,
        outputIndex: u.outputIndex,
        reward: { ...u.asset, historicalPrice: { currencyCode: currency, value: value.toFixed(6) } },
        rewardTxHash: rewardTx.tx.txHash,
      };
      items.push(entry);
      order.set(entry, [rewardTx.seq, u.outputIndex]);
    }
  }
  const keyOf = (r: HistoricalReward) => order.get(r) ?? [gen.ledger.txByHash.get(r.rewardTxHash)!.seq, r.outputIndex];
  return { items: sortByKey(items, keyOf, f.sortOrder), keyOf };
}

export interface PendingReward {
  addresses: string[];
  txHash: string;
  amountStaked: string;
  nodeId: string;
  startTimestamp: number;
  endTimestamp: number;
  rewardType: string;
  /** Share of the staking period elapsed at the world clock, 0..1. */
  progress: number;
  estimatedReward: AssetAmount;
}

/** Validations and delegations not yet rewarded (pending or active), with their estimated reward. */
export function listPendingRewards(gen: NetworkGenerator, f: RewardFilter): { items: PendingReward[]; keyOf: (r: PendingReward) => SortKey } {
  const wanted = new Set(f.addresses);
  const nodes = new Set(f.nodeIds);
  const now = gen.now;
  const open = [...gen.validations.filter((v) => v.feePercent !== undefined), ...gen.delegations].filter((s) => !s.rewardTx && s.end > now);
  const items: PendingReward[] = [];
  const order = new Map<PendingReward, SortKey>();
  for (const s of open) {
    if (nodes.size > 0 && !nodes.has(s.nodeId)) continue;
    if (wanted.size > 0 && !s.rewardAddresses.some((a) => wanted.has(a))) continue;
    const entry: PendingReward = {
      addresses: s.rewardAddresses,
      txHash: s.tx.tx.txHash,
      amountStaked: s.stake.toString(),
      nodeId: s.nodeId,
      startTimestamp: s.start,
      endTimestamp: s.end,
      rewardType: 'validation' in s ? 'DELEGATOR' : 'VALIDATOR',
      progress: Math.max(0, Math.min(1, (now - s.start) / (s.end - s.start))),
      estimatedReward: gen.ledger.assetAmount(gen.ledger.avax.assetId, s.reward),
    };
    items.push(entry);
    order.set(entry, [s.tx.seq]);
  }
  const keyOf = (r: PendingReward) => order.get(r) ?? [gen.ledger.txByHash.get(r.txHash)!.seq];
  return { items: sortByKey(items, keyOf, f.sortOrder), keyOf };
}
