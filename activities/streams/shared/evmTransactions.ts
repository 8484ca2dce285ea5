import { endpoints } from '../../api/endpoints/index.ts';
import type { NativeTransaction } from '../../api/schemas/index.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import { bigint, defineTable, evmAddressInfo, integer, uint256, ubigint, varchar, type Column } from '../columns.ts';
import { partitionId } from '../partitionIds.ts';
import { defineStream, listWalk, rowsOf } from '../streamDef.ts';

/** The partition's chain: the column every EVM table starts with. */
export const chainColumn = <S>(comment?: string): Column<S> => varchar('chain_id', (_s, x) => String(x.partition.params.chainId), comment);

/** Columns of a NativeTransaction after its chain id (shared by the list table and the detail table). */
export const nativeTransactionColumns: Column<NativeTransaction>[] = [
  varchar('tx_hash', (t) => t.txHash),
  ubigint('block_number', (t) => t.blockNumber),
  bigint('block_timestamp', (t) => t.blockTimestamp, 'epoch seconds'),
  varchar('block_hash', (t) => t.blockHash),
  integer('block_index', (t) => t.blockIndex),
  varchar('tx_status', (t) => t.txStatus, 'as sent (e.g. 1 / 0)'),
  integer('tx_type', (t) => t.txType),
  ubigint('gas_limit', (t) => t.gasLimit),
  ubigint('gas_used', (t) => t.gasUsed),
  ...uint256<NativeTransaction>('gas_price', (t) => t.gasPrice, 'wei per gas'),
  ubigint('nonce', (t) => t.nonce),
  ...evmAddressInfo<NativeTransaction>('from', (t) => t.from),
  ...evmAddressInfo<NativeTransaction>('to', (t) => t.to),
  varchar('method_call_type', (t) => t.method?.callType, 'method.callType (as sent)'),
  varchar('method_hash', (t) => t.method?.methodHash, 'method.methodHash'),
  varchar('method_name', (t) => t.method?.methodName, 'method.methodName'),
  ...uint256<NativeTransaction>('value', (t) => t.value, 'wei'),
];

export const chainIdComment = 'chainId (falls back to the partition chain)';

export const evmTransactionsTable = defineTable<NativeTransaction>({
  name: 'evm_transactions',
  comment:
    'EVM native transactions (NativeTransaction), from the chain-wide latest list (evm.transactions; evm.failed_transactions: its failed ones only) and per-address lists (evm.address_transactions). from/to/method flattened to columns.',
  columns: [varchar('chain_id', (t, x) => t.chainId ?? String(x.partition.params.chainId), chainIdComment), nativeTransactionColumns],
  primaryKey: ['chain_id', 'tx_hash'],
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
});

/**
 * A walk of each configured chain's latest transactions (newest first, until the stored high-water
 * mark), all of them or those of one `status`, into evm_transactions (evm.transactions and
 * evm.failed_transactions).
 */
export const chainTransactions = (name: StreamName, { status, optIn }: { status?: 'failed' | 'success'; optIn?: boolean } = {}) =>
  defineStream({
    name,
    mode: 'descending-until-known',
    ...(optIn ? { optIn } : {}),
    ...listWalk(endpoints.evm.listLatestTransactions, (p) => ({ chainId: String(p.params.chainId), ...(status ? { status } : {}) })),
    sources: [rowsOf(evmTransactionsTable)],
    partitions: (config) => config.evmChains.map((c) => ({ stream: name, id: partitionId(name, c.chainId), chain: c.chainId, params: { chainId: c.chainId } })),
    orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
    identity: (t) => t.txHash,
  });
