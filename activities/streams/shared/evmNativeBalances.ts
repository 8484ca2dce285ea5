import type { NativeTokenBalance } from '../../api/schemas/index.ts';
import { defineTable, integer, money, snapshotAt, uint256, varchar } from '../columns.ts';
import { fromPage, type TableSource } from '../streamDef.ts';
import { chainColumn } from './evmTransactions.ts';

/** A native balance and the address it belongs to. */
export interface NativeBalanceEntry {
  address: string;
  balance: NativeTokenBalance;
}

export const evmNativeBalancesTable = defineTable<NativeBalanceEntry>({
  name: 'evm_native_balances',
  comment:
    'Native token balance (NativeTokenBalance) of each configured EVM address per snapshot (snapshot_at = run snapshot time, epoch seconds); from balances:getNative and the nativeTokenBalance of the ERC balance pages.',
  columns: [
    chainColumn('the partition chain'),
    varchar('address', (e) => e.address),
    snapshotAt('snapshot_at'),
    varchar('token_chain_id', (e) => e.balance.chainId, 'nativeTokenBalance.chainId'),
    varchar('name', (e) => e.balance.name),
    varchar('symbol', (e) => e.balance.symbol),
    integer('decimals', (e) => e.balance.decimals),
    varchar('logo_uri', (e) => e.balance.logoUri),
    money('price', (e) => e.balance.price),
    uint256('balance', (e) => e.balance.balance, 'wei'),
    money('balance_value', (e) => e.balance.balanceValue),
  ],
  primaryKey: ['chain_id', 'address', 'snapshot_at'],
  merge: 'versions',
  // Only a native-balances walk (its params list addresses) answers for these rows: an ERC balance
  // page carries the native balance when it has one, so an ERC walk writes it but never closes it.
  versions: {
    scope: "(p->'addresses') IS NOT NULL AND t.chain_id = (p->>'chainId') AND list_contains(CAST(p->'addresses' AS VARCHAR[]), t.address)",
    answers: (p) => Array.isArray(p.addresses),
  },
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
});

/** The nativeTokenBalance an ERC balance page carries beside its list: a row for the partition's address. */
export function nativeBalanceBeside<T>(): TableSource<T> {
  return fromPage<T, NativeBalanceEntry>(evmNativeBalancesTable, (page, x) => {
    // The ERC balance pages' schemas declare it (Erc20BalancesPage and its twins).
    const native = (page.response as { nativeTokenBalance?: NativeTokenBalance | null } | undefined)?.nativeTokenBalance;
    return native ? [{ address: String(x.partition.params.address), balance: native }] : [];
  });
}
