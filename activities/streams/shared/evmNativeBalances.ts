import { z } from 'zod';
import { NativeTokenBalance } from '../../api/schemas/index.ts';
import { defineTable, integer, money, snapshotAt, uint256, varchar } from '../columns.ts';
import { fromPage, type TableSource } from '../streamDef.ts';
import { chainColumn } from './evmTransactions.ts';

/**
 * A native balance as sent, and the address it belongs to (which the response does not name): the
 * row's source, so its unmapped fields sit at the same paths whichever endpoint sent it (a get of it,
 * or an ERC balance page beside its list), and the two write the same row.
 */
export const NativeBalanceEntry = NativeTokenBalance.extend({ address: z.string() });
export type NativeBalanceEntry = z.infer<typeof NativeBalanceEntry>;

/** The row's source of a native balance sent for `address`. */
export const nativeBalanceEntry = (balance: object, address: string): NativeBalanceEntry => ({ ...(balance as NativeTokenBalance), address });

export const evmNativeBalancesTable = defineTable<NativeBalanceEntry>({
  name: 'evm_native_balances',
  comment:
    'Native token balance (NativeTokenBalance) of each configured EVM address per snapshot (snapshot_at = run snapshot time, epoch seconds); from balances:getNative and the nativeTokenBalance of the ERC balance pages.',
  columns: [
    chainColumn('the partition chain'),
    varchar('address', (e) => e.address),
    snapshotAt('snapshot_at'),
    varchar('token_chain_id', (e) => e.chainId, 'nativeTokenBalance.chainId'),
    varchar('name', (e) => e.name),
    varchar('symbol', (e) => e.symbol),
    integer('decimals', (e) => e.decimals),
    varchar('logo_uri', (e) => e.logoUri),
    money('price', (e) => e.price),
    uint256('balance', (e) => e.balance, 'wei'),
    money('balance_value', (e) => e.balanceValue),
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

/** The nativeTokenBalance an ERC balance page carries beside its list (its schemas declare it): a row for the partition's address. */
export function nativeBalanceBeside<T>(): TableSource<T> {
  return fromPage<T, NativeBalanceEntry>(evmNativeBalancesTable, { key: 'nativeTokenBalance', schema: NativeBalanceEntry, entry: (v, x) => nativeBalanceEntry(v, String(x.partition.params.address)) });
}
