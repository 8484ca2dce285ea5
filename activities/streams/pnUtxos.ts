import { endpoints } from '../api/endpoints/index.ts';
import type { Utxo } from '../api/schemas/index.ts';
import { defineTable, snapshotAt } from './columns.ts';
import { defineStream, rowsOf } from './streamDef.ts';
import { addressSetPartitions, chainKey } from './tables/pnPartitions.ts';
import { utxoColumns } from './tables/pnUtxo.ts';
import { fetchUtxoPage } from './utxoWalk.ts';

export const pnUtxosTable = defineTable<Utxo>({
  name: 'pn_utxos',
  comment:
    'UTXOs of the configured addresses, spent ones included (Utxo, every field); upserted by id. A sync reads new UTXOs (newest first until known) and the UTXOs consumed by new transactions of the addresses, so a spend fills consuming_* on the existing row. last_seen_at = snapshot of the last run that listed or updated it.',
  columns: [chainKey('chain alias as requested'), utxoColumns(), snapshotAt('last_seen_at')],
  primaryKey: ['network', 'blockchain_id', 'utxo_id'],
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'block_timestamp' },
});

export const pnUtxos = defineStream({
  name: 'pn.utxos',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listUtxosV2,
  // New UTXOs newest first until known, then spends from the address transaction list (utxoWalk.ts).
  fetchPage: fetchUtxoPage,
  sources: [rowsOf(pnUtxosTable)],
  // A run that also walks pn.transactions takes the spends from it (utxoWalk.ts).
  partitions: (config, plan) => addressSetPartitions('pn.utxos', config).map((p) => (plan?.streams?.includes('pn.transactions') ? { ...p, params: { ...p.params, spendsFromTransactions: true } } : p)),
});
