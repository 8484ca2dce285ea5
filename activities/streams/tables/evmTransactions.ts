import type { NativeTransaction } from '../../api/schemas/index.ts';
import type { Row, TableDef, ColumnDef } from '../../warehouse/tableDef.ts';
import { col, evmAddressInfo, evmAddressInfoRow, uint256, uint256Row } from '../columns.ts';
import { int, i64, str, u64 } from '../values.ts';

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
    ...uint256Row('gas_price', t.gasPrice),
    nonce: u64(t.nonce),
    ...evmAddressInfoRow('from', t.from),
    ...evmAddressInfoRow('to', t.to),
    method_call_type: str(t.method?.callType),
    method_hash: str(t.method?.methodHash),
    method_name: str(t.method?.methodName),
    ...uint256Row('value', t.value),
  };
}

export const evmTransactionsTable: TableDef = {
  name: 'evm_transactions',
  comment: 'EVM native transactions (NativeTransaction), from the chain-wide latest list (evm.transactions) and per-address lists (evm.address_transactions). from/to/method flattened to columns.',
  columns: nativeTransactionColumns,
  primaryKey: ['chain_id', 'tx_hash'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
};
