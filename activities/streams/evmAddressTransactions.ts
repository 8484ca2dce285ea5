import { endpoints } from '../api/endpoints/index.ts';
import type { NativeTransaction } from '../api/schemas/index.ts';
import { defineTable, ubigint, varchar } from './columns.ts';
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
  ],
  primaryKey: ['chain_id', 'address', 'tx_hash'],
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'] },
});

export const evmAddressTransactions = defineStream({
  name: 'evm.address_transactions',
  mode: 'range',
  ...listWalk(endpoints.evm.listNativeTransactions, blockRangeRequest),
  sources: [rowsOf(evmTransactionsTable), rowsOf(evmAddressTransactionsTable)],
  needsChainHeads: true,
  partitions: (config, plan) => blockRangePartitions('evm.address_transactions', config, 'addresses', plan),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
});
