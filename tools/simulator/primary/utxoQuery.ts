import type { ChainAlias } from './chains.ts';
import type { Ledger, UtxoRecord } from './ledger.ts';
import { sortByKey, type SortKey } from './keyedWalk.ts';
import type { Utxo } from './types.ts';

export interface UtxoFilter {
  /** Bare addresses; empty = every UTXO listed on the chain. */
  addresses: string[];
  assetId?: string;
  minUtxoAmount: bigint;
  includeSpent: boolean;
  sortBy: 'timestamp' | 'amount';
  sortOrder: 'asc' | 'desc';
}

/** Every UTXO the UTXO list returns for these filters, in list order (the one source for pages and ground truth). */
export function listUtxos(ledger: Ledger, chain: ChainAlias, f: UtxoFilter): { items: Utxo[]; keyOf: (u: Utxo) => SortKey } {
  let records: UtxoRecord[];
  if (f.addresses.length === 0) records = ledger.utxosByChain[chain];
  else {
    const seen = new Set<UtxoRecord>();
    for (const a of f.addresses) for (const r of ledger.utxosByAddress[chain].get(a) ?? []) seen.add(r);
    records = [...seen];
  }
  const picked = records.filter(
    (r) =>
      (f.includeSpent || r.utxo.consumingTxHash === undefined) &&
      (f.assetId === undefined || r.utxo.assetId === f.assetId) &&
      r.amount >= f.minUtxoAmount,
  );
  const seqOf = new Map<Utxo, number>(picked.map((r) => [r.utxo, r.seq]));
  const keyOf = (u: Utxo): SortKey => (f.sortBy === 'amount' ? [u.amount, seqOf.get(u) ?? ledger.utxos.get(u.utxoId)!.seq] : [u.blockTimestamp, seqOf.get(u) ?? ledger.utxos.get(u.utxoId)!.seq]);
  return { items: sortByKey(picked.map((r) => r.utxo), keyOf, f.sortOrder), keyOf };
}
