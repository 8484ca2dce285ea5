import { endpoints } from '../api/endpoints/index.ts';
import type { HolderEntry } from '../api/schemas/index.ts';
import { added, defineTable, retyped, snapshotAt, uint256, varchar } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { chainColumn } from './shared/evmTransactions.ts';

const [sortKey, sortKeyNum] = uint256<HolderEntry>('sort_key', (h) => h.sortKey, "sortKey: the holder's balance (token smallest unit)");

export const metricsHoldersTable = defineTable<HolderEntry>({
  name: 'metrics_holders',
  comment: 'Holders of each configured contract above the chain holderThreshold (Holder entry), per snapshot.',
  columns: [
    chainColumn(),
    varchar('contract_address', (_h, x) => String(x.partition.params.address)),
    varchar('threshold', (_h, x) => String(x.partition.params.threshold), 'minimum balance, decimal text as requested'),
    snapshotAt('snapshot_at'),
    varchar('address', (h) => h.address, 'holder'),
    // sort_key was a BIGINT rank before sortKey was read as the balance: converted in place, twin added.
    retyped(sortKey),
    added(sortKeyNum, 'TRY_CAST(sort_key AS DECIMAL(38,0))'),
  ],
  primaryKey: ['chain_id', 'contract_address', 'threshold', 'snapshot_at', 'address'],
  merge: 'versions',
  versions: { scope: "t.chain_id = (p->>'chainId') AND t.contract_address = (p->>'address') AND t.threshold = (p->>'threshold')" },
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
});

export const metricsHolders = defineStream({
  name: 'metrics.holders',
  mode: 'snapshot-replace',
  ...listWalk(endpoints.metrics.listHolders, (p) => ({ chainId: String(p.params.chainId), address: String(p.params.address), threshold: String(p.params.threshold) })),
  sources: [rowsOf(metricsHoldersTable)],
  // A token's holders are listed whole every night and mostly unchanged: a walk that lists what the
  // last one did writes nothing (its scope is the partition's own contract and threshold).
  sameWalks: true,
  partitions: (config) =>
    config.evmChains.flatMap((c) =>
      c.contracts.map((address) => ({
        stream: 'metrics.holders' as const,
        id: partitionId('metrics.holders', c.chainId, address),
        chain: c.chainId,
        params: { chainId: c.chainId, address, threshold: c.holderThreshold },
      })),
    ),
});
