import { endpoints } from '../api/endpoints/index.ts';
import type { NativeTransaction } from '../api/schemas/index.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { evmTransactionsTable, nativeTransactionRow } from './tables/evmTransactions.ts';

export const evmTransactions: StreamDef<NativeTransaction> = {
  name: 'evm.transactions',
  endpoint: 'GET /v1/chains/{chainId}/transactions',
  mode: 'descending-until-known',
  walks: endpoints.evm.listLatestTransactions,
  tables: [evmTransactionsTable],
  partitions: (config) =>
    config.evmChains.map((c) => ({ stream: 'evm.transactions', id: partitionId('evm.transactions', c.chainId), chain: c.chainId, params: { chainId: c.chainId } })),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listLatestTransactions, { chainId: String(p.params.chainId), pageSize: s.pageSize, pageToken: s.pageToken ?? undefined });
    return { items: r.transactions, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({ evm_transactions: page.items.map((t) => nativeTransactionRow(t, t.chainId ?? String(ctx.partition.params.chainId))) }),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
};
