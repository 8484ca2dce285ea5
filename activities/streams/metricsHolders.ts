import { endpoints } from '../api/endpoints/index.ts';
import type { HolderEntry } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { added, col, retyped, uint256, uint256Row } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';

const [sortKey, sortKeyNum] = uint256('sort_key', "sortKey: the holder's balance (token smallest unit)");

export const metricsHoldersTable: TableDef = {
  name: 'metrics_holders',
  comment: 'Holders of each configured contract above the chain holderThreshold (Holder entry), per snapshot.',
  columns: [
    col('chain_id', 'VARCHAR'),
    col('contract_address', 'VARCHAR'),
    col('threshold', 'VARCHAR', 'minimum balance, decimal text as requested'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('address', 'VARCHAR', 'holder'),
    // sort_key was a BIGINT rank before sortKey was read as the balance: converted in place, twin added.
    retyped(sortKey),
    added(sortKeyNum, 'TRY_CAST(sort_key AS DECIMAL(38,0))'),
  ],
  primaryKey: ['chain_id', 'contract_address', 'threshold', 'snapshot_at', 'address'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
};

export const metricsHolders: StreamDef<HolderEntry> = {
  name: 'metrics.holders',
  endpoint: 'GET {metricsUrl}/v2/chains/{chainId}/contracts/{address}/balances',
  mode: 'snapshot-replace',
  walks: endpoints.metrics.listHolders,
  tables: [metricsHoldersTable],
  partitions: (config) =>
    config.evmChains.flatMap((c) =>
      c.contracts.map((address) => ({
        stream: 'metrics.holders' as const,
        id: partitionId('metrics.holders', c.chainId, address),
        chain: c.chainId,
        params: { chainId: c.chainId, address, threshold: c.holderThreshold },
      })),
    ),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.metrics.listHolders, {
      chainId: String(p.params.chainId),
      address: String(p.params.address),
      threshold: String(p.params.threshold),
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.addresses, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    metrics_holders: page.items.map((h) => ({
      chain_id: String(ctx.partition.params.chainId),
      contract_address: String(ctx.partition.params.address),
      threshold: String(ctx.partition.params.threshold),
      snapshot_at: BigInt(ctx.snapshotAt),
      address: h.address,
      ...uint256Row('sort_key', h.sortKey),
    })),
  }),
};
