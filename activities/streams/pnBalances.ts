import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { AtomicMemoryBalanceAmount, Balances } from '../api/schemas/index.ts';
import type { Row, TableDef } from '../warehouse/tableDef.ts';
import { assetAmount, assetAmountRow, col } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { addressSetPartitions } from './tables/pnPartitions.ts';
import { int, str } from './values.ts';

export const pnBalancesTable: TableDef = {
  name: 'pn_balances',
  comment:
    'Balances of each configured address set per chain and snapshot: one row per (balance kind, entry). kind is the Balances key (unlockedUnstaked, unlockedStaked, lockedPlatform, lockedStakeable, lockedStaked, pendingStaked, atomicMemoryUnlocked, atomicMemoryLocked; X-chain locked/unlocked).',
  columns: [
    col('network', 'VARCHAR'),
    col('blockchain_id', 'VARCHAR', 'chain alias as requested'),
    col('address_set', 'VARCHAR', 'sorted configured addresses, comma-joined'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('kind', 'VARCHAR'),
    col('item_index', 'INTEGER'),
    ...assetAmount(''),
    col('utxo_count', 'INTEGER'),
    col('shared_with_chain_id', 'VARCHAR', 'atomic memory entries'),
    col('status', 'VARCHAR', 'atomic memory entries'),
  ],
  primaryKey: ['network', 'blockchain_id', 'address_set', 'snapshot_at', 'kind', 'item_index'],
  merge: 'upsert',
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'snapshot_at' },
};

type Item = { balances: Balances };

export const pnBalances: StreamDef<Item> = {
  name: 'pn.balances',
  endpoint: 'GET /v1/networks/{network}/blockchains/{blockchainId}/balances',
  mode: 'snapshot-replace',
  walks: endpoints.primaryNetwork.getBalances,
  tables: [pnBalancesTable],
  partitions: (config) => addressSetPartitions('pn.balances', config),
  async fetchPage(client, p) {
    const r = await client.call(endpoints.primaryNetwork.getBalances, {
      network: p.params.network as Network,
      blockchainId: String(p.params.blockchainId),
      addresses: p.params.addresses as string[],
    });
    return { items: [{ balances: r.balances }] };
  },
  normalize: (page, ctx) => {
    const rows: Row[] = [];
    const base = {
      network: String(ctx.partition.params.network),
      blockchain_id: String(ctx.partition.params.blockchainId),
      address_set: (ctx.partition.params.addresses as string[]).join(','),
      snapshot_at: BigInt(ctx.snapshotAt),
    };
    for (const { balances } of page.items) {
      for (const [kind, list] of Object.entries(balances)) {
        if (!Array.isArray(list)) continue;
        (list as AtomicMemoryBalanceAmount[]).forEach((b, i) =>
          rows.push({ ...base, kind, item_index: i, ...assetAmountRow('', b), utxo_count: int(b.utxoCount), shared_with_chain_id: str(b.sharedWithChainId), status: str(b.status) }),
        );
      }
    }
    return { pn_balances: rows };
  },
};
