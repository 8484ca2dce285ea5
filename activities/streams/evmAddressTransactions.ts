import { endpoints } from '../api/endpoints/index.ts';
import type { NativeTransaction } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { blockRangePartitions } from './tables/blockRanges.ts';
import { evmTransactionsTable, nativeTransactionRow } from './tables/evmTransactions.ts';
import { u64 } from './values.ts';

export const evmAddressTransactionsTable: TableDef = {
  name: 'evm_address_transactions',
  comment: 'Which configured address each EVM transaction was listed for (link to evm_transactions).',
  columns: [col('chain_id', 'VARCHAR'), col('address', 'VARCHAR', 'the listed address as configured'), col('tx_hash', 'VARCHAR'), col('block_number', 'UBIGINT')],
  primaryKey: ['chain_id', 'address', 'tx_hash'],
  merge: 'upsert',
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'] },
};

export const evmAddressTransactions: StreamDef<NativeTransaction> = {
  name: 'evm.address_transactions',
  endpoint: 'GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative',
  mode: 'range',
  walks: endpoints.evm.listNativeTransactions,
  tables: [evmTransactionsTable, evmAddressTransactionsTable],
  needsChainHeads: true,
  partitions: (config, plan) => blockRangePartitions('evm.address_transactions', config, 'addresses', plan),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listNativeTransactions, {
      chainId: String(p.params.chainId),
      address: String(p.params.address),
      startBlock: s.from ?? Number(p.params.startBlock ?? 0),
      endBlock: p.params.endBlock === undefined ? undefined : Number(p.params.endBlock),
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.transactions, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => {
    const chainId = String(ctx.partition.params.chainId);
    return {
      evm_transactions: page.items.map((t) => nativeTransactionRow(t, t.chainId ?? chainId)),
      evm_address_transactions: page.items.map((t) => ({ chain_id: t.chainId ?? chainId, address: String(ctx.partition.params.address), tx_hash: t.txHash, block_number: u64(t.blockNumber) })),
    };
  },
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
};
