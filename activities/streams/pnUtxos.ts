import { endpoints } from '../api/endpoints/index.ts';
import type { Utxo } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { addressSetPartitions } from './tables/pnPartitions.ts';
import { utxoColumns, utxoRow } from './tables/pnUtxo.ts';
import { fetchUtxoPage } from './utxoWalk.ts';

export const pnUtxosTable: TableDef = {
  name: 'pn_utxos',
  comment:
    'UTXOs of the configured addresses, spent ones included (Utxo, every field); upserted by id. A sync reads new UTXOs (newest first until known) and the UTXOs consumed by new transactions of the addresses, so a spend fills consuming_* on the existing row. last_seen_at = snapshot of the last run that listed or updated it.',
  columns: [col('network', 'VARCHAR'), col('blockchain_id', 'VARCHAR', 'chain alias as requested'), ...utxoColumns, col('last_seen_at', 'BIGINT', 'epoch seconds of the run snapshot')],
  primaryKey: ['network', 'blockchain_id', 'utxo_id'],
  merge: 'upsert',
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'block_timestamp' },
};

export const pnUtxos: StreamDef<Utxo> = {
  name: 'pn.utxos',
  endpoint: 'POST /v1/networks/{network}/blockchains/{blockchainId}/utxos',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listUtxosV2,
  tables: [pnUtxosTable],
  // A run that also walks pn.transactions takes the spends from it (utxoWalk.ts).
  partitions: (config, plan) => addressSetPartitions('pn.utxos', config).map((p) => (plan?.streams?.includes('pn.transactions') ? { ...p, params: { ...p.params, spendsFromTransactions: true } } : p)),
  // New UTXOs newest first until known, then spends from the address transaction list (utxoWalk.ts).
  fetchPage: fetchUtxoPage,
  normalize: (page, ctx) => ({
    pn_utxos: page.items.map((u) => ({
      network: String(ctx.partition.params.network),
      blockchain_id: String(ctx.partition.params.blockchainId),
      ...utxoRow(u),
      last_seen_at: BigInt(ctx.snapshotAt),
    })),
  }),
};
