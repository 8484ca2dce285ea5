import { endpoints } from '../api/endpoints/index.ts';
import type { NativeTransaction } from '../api/schemas/index.ts';
import { added, bigint, defineTable, ubigint, varchar } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { blockRangePartitions, blockRangeRequest } from './shared/blockRanges.ts';
import { evmTransactionsTable } from './shared/evmTransactions.ts';

export const evmAddressTransactionsTable = defineTable<NativeTransaction>({
  name: 'evm_address_transactions',
  comment: 'Which configured address each EVM transaction was listed for (link to evm_transactions).',
  columns: [
    varchar('chain_id', (t, x) => t.chainId ?? String(x.partition.params.chainId)),
    varchar('address', (_t, x) => String(x.partition.params.address), 'the listed address as configured'),
    varchar('tx_hash', (t) => t.txHash),
    ubigint('block_number', (t) => t.blockNumber),
    // Schema version 5: the day of the lake partition (a night rewrites its day, not the whole chain's links).
    added(
      bigint('block_timestamp', (t) => t.blockTimestamp, 'epoch seconds (the transaction\'s, as in evm_transactions)'),
      '(SELECT p.block_timestamp FROM evm_transactions AS p WHERE p.chain_id = evm_address_transactions.chain_id AND p.tx_hash = evm_address_transactions.tx_hash)',
    ),
  ],
  primaryKey: ['chain_id', 'address', 'tx_hash'],
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
});

export const evmAddressTransactions = defineStream({
  name: 'evm.address_transactions',
  mode: 'range',
  ...listWalk(endpoints.evm.listNativeTransactions, blockRangeRequest),
  sources: [rowsOf(evmTransactionsTable), rowsOf(evmAddressTransactionsTable)],
  needsChainHeads: true,
  partitions: (config, plan) => blockRangePartitions('evm.address_transactions', config, 'addresses', plan),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
  // With its block: a transaction a reorganization moved into another block at the same height is new.
  identity: (t) => `${t.txHash}/${t.blockHash ?? ''}`,
});
