import { endpoints } from '../api/endpoints/index.ts';
import type { Utxo } from '../api/schemas/index.ts';
import { defineTable, snapshotAt } from './columns.ts';
import { defineStream, rowsOf } from './streamDef.ts';
import { chainKey } from './shared/pnPartitions.ts';
import { utxoColumns } from './shared/pnUtxo.ts';
import { deriveUtxoLists, derivedUnchanged, utxoPartitions } from './utxoDerivation.ts';
import { fetchUtxoPage, utxoCursor } from './utxoWalk.ts';

const UTXO_KEY = ['network', 'blockchain_id', 'utxo_id'];
/** pn_utxos' columns from the API (its key, every Utxo field). */
const utxoTableColumns = [...chainKey<Utxo>('chain alias as requested'), ...utxoColumns()];

export const pnUtxosTable = defineTable<Utxo>({
  name: 'pn_utxos',
  comment:
    'UTXOs of the configured addresses, spent ones included (Utxo, every field); upserted by id, a row never moves back from spent to unspent. A sync reads new UTXOs (newest first until known) and the UTXOs consumed by new transactions of the addresses, so a spend fills consuming_* on the existing row; a sync that also walks pn.transactions takes the UTXOs created on the chain, and exports to the X/C-chain, from the transactions (emitted/consumed) and lists only exports to the P-chain not imported yet. last_seen_at = snapshot of the last run that listed or updated it (derived rows: their block time).',
  columns: [utxoTableColumns, snapshotAt('last_seen_at')],
  primaryKey: UTXO_KEY,
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'block_timestamp' },
  afterMerge: ['ops/keepUtxoSpends.sql'],
});

export const pnUtxos = defineStream({
  name: 'pn.utxos',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listUtxosV2,
  // New UTXOs newest first until known, then spends from the address transaction list (utxoWalk.ts).
  fetchPage: fetchUtxoPage,
  cursor: utxoCursor,
  sources: [rowsOf(pnUtxosTable)],
  // A run that also walks pn.transactions takes the spends from it (utxoWalk.ts); a sync also the new
  // UTXOs, and then plans these partitions in the derived wave, after the transactions (utxoDerivation.ts).
  takesDiscovered: true,
  partitions: utxoPartitions,
  // The derived wave of such a sync: which partitions still need the list (utxoDerivation.ts).
  derive: deriveUtxoLists,
  unchanged: derivedUnchanged,
});
