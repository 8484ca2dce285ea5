import type { ChainAlias } from './chains.ts';
import type { Ledger, UtxoRecord } from './ledger.ts';
import type { AssetAmount } from './types.ts';

export type BalanceAmount = AssetAmount & { utxoCount: number };
export type AtomicBalanceAmount = BalanceAmount & { sharedWithChainId: string; status: 'locked' | 'unlocked' };

const STAKING_KEYS = ['unlockedUnstaked', 'unlockedStaked', 'lockedPlatform', 'lockedStakeable', 'lockedStaked', 'pendingStaked'] as const;
type StakingKey = (typeof STAKING_KEYS)[number];

/** A UTXO exists at t when it was created at or before t and not consumed by then. */
export function unspentAt(r: UtxoRecord, t: number): boolean {
  const u = r.utxo;
  return u.blockTimestamp <= t && (u.consumingBlockTimestamp === undefined || u.consumingBlockTimestamp > t);
}

/** Which balance bucket an unspent UTXO falls in at time t. */
export function bucketAt(ledger: Ledger, chain: ChainAlias, r: UtxoRecord, t: number): StakingKey | 'locked' | 'unlocked' | 'atomicMemoryLocked' | 'atomicMemoryUnlocked' {
  const u = r.utxo;
  if (u.createdOnChainId !== ledger.chainId(chain)) return u.platformLocktime > t ? 'atomicMemoryLocked' : 'atomicMemoryUnlocked';
  // The X-chain has time locks only (XChainBalances: locked, unlocked).
  if (chain === 'x-chain') return u.platformLocktime > t ? 'locked' : 'unlocked';
  if (u.staked) {
    if ((u.utxoStartTimestamp ?? 0) > t) return 'pendingStaked';
    return u.stakeableLocktime > t ? 'lockedStaked' : 'unlockedStaked';
  }
  if (u.platformLocktime > t) return 'lockedPlatform';
  if (u.stakeableLocktime > t) return 'lockedStakeable';
  return 'unlockedUnstaked';
}

/**
 * Balances at time t: sums of the matching UTXOs per bucket and asset. P-chain: the staking keys;
 * X-chain: locked/unlocked (XChainBalances); the C-chain only has atomic memory here (its EVM
 * balance is served by the native-balance endpoint).
 */
export function balancesAt(ledger: Ledger, chain: ChainAlias, addresses: string[], t: number): Record<string, BalanceAmount[] | AtomicBalanceAmount[]> {
  let records: Iterable<UtxoRecord>;
  if (addresses.length === 0) records = ledger.utxosByChain[chain];
  else {
    const seen = new Set<UtxoRecord>();
    for (const a of addresses) for (const r of ledger.utxosByAddress[chain].get(a) ?? []) seen.add(r);
    records = seen;
  }
  const sums = new Map<string, { bucket: string; assetId: string; shared?: string; amount: bigint; count: number }>();
  for (const r of records) {
    if (!unspentAt(r, t)) continue;
    const bucket = bucketAt(ledger, chain, r, t);
    const shared = bucket.startsWith('atomic') ? r.utxo.createdOnChainId : undefined;
    const key = `${bucket}|${r.utxo.assetId}|${shared ?? ''}`;
    const s = sums.get(key) ?? { bucket, assetId: r.utxo.assetId, shared, amount: 0n, count: 0 };
    s.amount += r.amount;
    s.count++;
    sums.set(key, s);
  }
  const out: Record<string, (BalanceAmount | AtomicBalanceAmount)[]> = {};
  if (chain === 'p-chain') for (const k of STAKING_KEYS) out[k] = [];
  if (chain === 'x-chain') for (const k of ['locked', 'unlocked']) out[k] = [];
  out.atomicMemoryUnlocked = [];
  out.atomicMemoryLocked = [];
  for (const s of [...sums.values()].sort((a, b) => (a.assetId + (a.shared ?? '') < b.assetId + (b.shared ?? '') ? -1 : 1))) {
    const entry: BalanceAmount = { ...ledger.assetAmount(s.assetId, s.amount), utxoCount: s.count };
    if (s.shared) out[s.bucket].push({ ...entry, sharedWithChainId: s.shared, status: s.bucket === 'atomicMemoryLocked' ? 'locked' : 'unlocked' });
    else if (out[s.bucket]) out[s.bucket].push(entry);
  }
  return out;
}
