import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import { z } from 'zod';
import { Balances, type AtomicMemoryBalanceAmount } from '../api/schemas/index.ts';
import { assetAmount, defineTable, integer, snapshotAt, varchar } from './columns.ts';
import { childrenOf, defineStream, type Child } from './streamDef.ts';
import { addressSet, addressSetPartitions, chainKey } from './shared/pnPartitions.ts';
import { asList } from './unmapped.ts';

type Item = { balances: Balances };
type Entry = Child<Item, AtomicMemoryBalanceAmount>;

export const pnBalancesTable = defineTable<Entry>({
  name: 'pn_balances',
  comment:
    'Balances of each configured address set per chain and snapshot: one row per (balance kind, entry). kind is the Balances key (unlockedUnstaked, unlockedStaked, lockedPlatform, lockedStakeable, lockedStaked, pendingStaked, atomicMemoryUnlocked, atomicMemoryLocked; X-chain locked/unlocked).',
  columns: [
    chainKey('chain alias as requested'),
    addressSet(),
    snapshotAt('snapshot_at'),
    varchar('kind', (e) => e.tag),
    integer('item_index', (e) => e.index),
    assetAmount('', (e) => e.item),
    integer('utxo_count', (e) => e.item.utxoCount),
    varchar('shared_with_chain_id', (e) => e.item.sharedWithChainId, 'atomic memory entries'),
    varchar('status', (e) => e.item.status, 'atomic memory entries'),
  ],
  primaryKey: ['network', 'blockchain_id', 'address_set', 'snapshot_at', 'kind', 'item_index'],
  merge: 'versions',
  versions: { scope: "t.network = (p->>'network') AND t.blockchain_id = (p->>'blockchainId') AND t.address_set = array_to_string(CAST(p->'addresses' AS VARCHAR[]), ',')" },
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'snapshot_at' },
});

export const pnBalances = defineStream({
  name: 'pn.balances',
  mode: 'snapshot-replace',
  walks: endpoints.primaryNetwork.getBalances,
  items: z.looseObject({ balances: Balances }),
  async fetchPage(client, p) {
    const r = await client.call(endpoints.primaryNetwork.getBalances, {
      network: p.params.network as Network,
      blockchainId: String(p.params.blockchainId),
      addresses: p.params.addresses as string[],
    });
    return { items: [{ balances: r.balances }] };
  },
  // Every list the (open) Balances object carries, under its key.
  // asList, not Array.isArray: the probe of the column readers (unmapped.ts) must see the lists' entries too, or their unmapped fields are lost.
  sources: [childrenOf(pnBalancesTable, (i: Item) => Object.entries(i.balances).map(([kind, list]) => [kind, asList<AtomicMemoryBalanceAmount>(list)]))],
  partitions: (config) => addressSetPartitions('pn.balances', config),
});
