import type { NativeTransaction } from '../../api/schemas/index.ts';
import type { Row, TableDef, ColumnDef } from '../../warehouse/tableDef.ts';
import { col, evmAddressInfo, uint256 } from '../columns.ts';
import { dec38, int, i64, str, u64 } from '../values.ts';

/** Columns of a NativeTransaction (shared by the list table and the detail table). */
export const nativeTransactionColumns: ColumnDef[] = [
  col('chain_id', 'VARCHAR', 'chainId (falls back to the partition chain)'),
  col('tx_hash', 'VARCHAR'),
  col('block_number', 'UBIGINT'),
  col('block_timestamp', 'BIGINT', 'epoch seconds'),
  col('block_hash', 'VARCHAR'),
  col('block_index', 'INTEGER'),
  col('tx_status', 'VARCHAR', 'as sent (e.g. 1 / 0)'),
  col('tx_type', 'INTEGER'),
  col('gas_limit', 'UBIGINT'),
  col('gas_used', 'UBIGINT'),
  ...uint256('gas_price', 'wei per gas'),
  col('nonce', 'UBIGINT'),
  ...evmAddressInfo('from'),
  ...evmAddressInfo('to'),
  col('method_call_type', 'VARCHAR', 'method.callType (as sent)'),
  col('method_hash', 'VARCHAR', 'method.methodHash'),
  col('method_name', 'VARCHAR', 'method.methodName'),
  ...uint256('value', 'wei'),
];

/**
 * Fields are written out by name (no spreads of the column-group builders): this runs for every
 * transaction of every page, and V8 builds literals with spreads and computed keys on a slow path.
 */
export function nativeTransactionRow(t: NativeTransaction, chainId: string): Row {
  return {
    chain_id: chainId,
    tx_hash: t.txHash,
    block_number: u64(t.blockNumber),
    block_timestamp: i64(t.blockTimestamp),
    block_hash: str(t.blockHash),
    block_index: int(t.blockIndex),
    tx_status: str(t.txStatus),
    tx_type: int(t.txType),
    gas_limit: u64(t.gasLimit),
    gas_used: u64(t.gasUsed),
    gas_price: str(t.gasPrice),
    gas_price_num: dec38(t.gasPrice),
    nonce: u64(t.nonce),
    from_address: str(t.from?.address),
    from_name: str(t.from?.name),
    from_symbol: str(t.from?.symbol),
    from_decimals: int(t.from?.decimals),
    from_logo_uri: str(t.from?.logoUri),
    to_address: str(t.to?.address),
    to_name: str(t.to?.name),
    to_symbol: str(t.to?.symbol),
    to_decimals: int(t.to?.decimals),
    to_logo_uri: str(t.to?.logoUri),
    method_call_type: str(t.method?.callType),
    method_hash: str(t.method?.methodHash),
    method_name: str(t.method?.methodName),
    value: str(t.value),
    value_num: dec38(t.value),
  };
}

export const evmTransactionsTable: TableDef = {
  name: 'evm_transactions',
  comment: 'EVM native transactions (NativeTransaction), from the chain-wide latest list (evm.transactions) and per-address lists (evm.address_transactions). from/to/method flattened to columns.',
  columns: nativeTransactionColumns,
  primaryKey: ['chain_id', 'tx_hash'],
  merge: 'upsert',
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
};
