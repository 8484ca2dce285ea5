import { endpoints } from '../api/endpoints/index.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { evmTransactionsTable } from './shared/evmTransactions.ts';

export const evmTransactions = defineStream({
  name: 'evm.transactions',
  mode: 'descending-until-known',
  ...listWalk(endpoints.evm.listLatestTransactions, (p) => ({ chainId: String(p.params.chainId) })),
  sources: [rowsOf(evmTransactionsTable)],
  partitions: (config) =>
    config.evmChains.map((c) => ({ stream: 'evm.transactions', id: partitionId('evm.transactions', c.chainId), chain: c.chainId, params: { chainId: c.chainId } })),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
});
