import type { ChainAlias } from './chains.ts';
import type { Ledger, TxRecord } from './ledger.ts';
import type { SortKey } from './keyedWalk.ts';
import type { PnTransaction } from './types.ts';

export interface TransactionFilter {
  /** Bare bech32 or lower-case 0x addresses; empty = the chain's latest transactions. */
  addresses: string[];
  txTypes: string[];
  startTimestamp?: number;
  endTimestamp?: number;
  l1ValidationId?: string;
  sortOrder: 'asc' | 'desc';
}

/** Every transaction the list returns for these filters, in list order (creation order = block order). */
export function listTransactions(ledger: Ledger, chain: ChainAlias, f: TransactionFilter): { items: PnTransaction[]; keyOf: (t: PnTransaction) => SortKey; records: Map<PnTransaction, TxRecord> } {
  const wanted = new Set(f.addresses);
  const types = new Set(f.txTypes);
  const picked = ledger.txs[chain].filter(
    (r) =>
      (wanted.size === 0 || [...wanted].some((a) => r.addresses.has(a))) &&
      (f.l1ValidationId === undefined || r.l1ValidationIds.includes(f.l1ValidationId)) &&
      (types.size === 0 || types.has(r.tx.txType)) &&
      (f.startTimestamp === undefined || r.tx.blockTimestamp >= f.startTimestamp) &&
      (f.endTimestamp === undefined || r.tx.blockTimestamp <= f.endTimestamp),
  );
  if (f.sortOrder === 'desc') picked.reverse();
  const records = new Map(picked.map((r) => [r.tx, r]));
  return { items: picked.map((r) => r.tx), keyOf: (t) => [ledger.txByHash.get(t.txHash)!.seq], records };
}

/** Pages stop early once their transactions carry this many UTXOs (the service's performance threshold). */
export const UTXOS_PER_PAGE_BUDGET = 300;
