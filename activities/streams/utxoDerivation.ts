import type { ResolvedConfig } from '../../common/config.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { partitionId, setTag } from './partitionIds.ts';
import type { DeriveContext, Discovered } from './streamDef.ts';
import { addressSetPartitions } from './shared/pnPartitions.ts';

/**
 * pn.utxos in a sync that also walks pn.transactions: the UTXO list is asked only when the
 * transactions cannot give what it would.
 *
 * Every UTXO the list of a chain shows for an address set is either created on that chain, by a
 * transaction of that chain that lists the owner (the set's transaction walk stores it, with its
 * emittedUtxos and consumedUtxos in the list's own item type: PChainUtxo on the P-chain, Utxo on X
 * and C), or exported to that chain by another chain's ExportTx (emitted there in the exporting
 * chain's shape, listed here in this chain's: block number and UTXO type of the listing are not
 * in the export). So:
 *
 * - the transactions walk stores the set's new UTXOs created on the chain, and their spends, as it
 *   commits (sql/ops/deriveUtxosFromTransactions.sql), in any order, whichever walk commits first;
 *   a row only ever moves forward (sql/ops/keepUtxoSpends.sql guards the list's own rows);
 * - an export to the X- or C-chain not imported yet is derived too, from the exporting transaction's
 *   copy: the generic Utxo shape those chains list it in holds nothing that copy lacks (mapping in
 *   the derive statement); an export to the P-chain is not (PChainUtxo's block number and staking
 *   fields are in no X/C-chain copy);
 * - the UTXO partition runs in the derived wave, after every transactions partition, and reads the
 *   list (newest first until known, as without transactions) only when this run's transaction walks
 *   of the set stored an export to its chain that pn_utxos lacks (in practice one to the P-chain, not
 *   imported yet: once imported, the importing transaction carries it in this chain's shape), or when it cannot tell (a
 *   transactions partition of the set did not complete in this run: failed, or held by another
 *   shard's warehouse). Otherwise its walk completes without a request.
 *
 * A backfill reads the list (the reference snapshot); so does a partition's first walk.
 */
export function derivesFromTransactions(plan?: Discovered): boolean {
  return plan?.mode === 'sync' && plan.streams?.includes('pn.transactions') === true;
}

/** The pn.utxos partitions of a run, with the walk each takes (see above). */
export function utxoPartitions(config: ResolvedConfig, plan?: Discovered<ReadonlySet<string>>): PartitionSpec[] {
  const base = addressSetPartitions('pn.utxos', config);
  const withTransactions = plan?.streams?.includes('pn.transactions') === true;
  if (!derivesFromTransactions(plan)) return withTransactions ? base.map((p) => ({ ...p, params: { ...p.params, spendsFromTransactions: true } })) : base;
  // Planned after the transactions walks; a plan of every partition at once (verify, shard routing) has them all.
  if (plan?.wave === 'configured') return [];
  return base.map((p) => ({ ...p, params: { ...p.params, spendsFromTransactions: true, listNeeded: plan?.derived?.has(p.id) ?? true } }));
}

/** A sync walk of a derived partition with a mark and nothing the list alone can give: no request. */
export const derivedUnchanged = (p: PartitionSpec, cursor: { known?: string }): boolean => p.params.listNeeded === false && cursor.known !== undefined;

const PENDING_EXPORTS = `
SELECT count(*) AS n
FROM pn_transaction_utxos AS e
JOIN pn_address_transactions AS a ON a.network = e.network AND a.blockchain_id = e.blockchain_id AND a.tx_hash = e.tx_hash AND a.address_set = $3
WHERE e.network = $1
  AND e.direction = 'emitted'
  AND e.blockchain_id <> $2
  AND e.created_on_chain_id IS DISTINCT FROM e.consumed_on_chain_id
  AND list_has_any(e.addresses, list_transform(string_split($3, ','), x -> regexp_replace(x, '^[A-Za-z]-', '')))
  AND NOT EXISTS (SELECT 1 FROM pn_utxos AS u WHERE u.network = e.network AND u.blockchain_id = $2 AND u.utxo_id = e.utxo_id)
  -- Exported to this chain: its id is what the chain's own outputs name as their creator; a chain that
  -- created nothing stored yet cannot be told apart, so every pending export counts.
  AND (e.consumed_on_chain_id IN (SELECT created_on_chain_id FROM pn_transaction_utxos WHERE network = $1 AND blockchain_id = $2 AND direction = 'emitted')
       OR NOT EXISTS (SELECT 1 FROM pn_transaction_utxos WHERE network = $1 AND blockchain_id = $2 AND direction = 'emitted'))`;

/** Planning of the derived wave: in a sync beside pn.transactions, the partitions that must read the UTXO list. */
export const deriveUtxoLists = async ({ warehouse, config, plan, runId }: DeriveContext): Promise<Set<string> | undefined> =>
  derivesFromTransactions(plan) ? utxoListsNeeded(warehouse, config, runId) : undefined;

/**
 * The pn.utxos partitions whose walk in this sync must read the UTXO list (module comment). Also
 * every one, once the list has sent fields the stream does not map (schema drift, docs/drift.md):
 * a derived row could not keep them (unless the stream's contract is discard).
 */
export async function utxoListsNeeded(warehouse: Warehouse, config: ResolvedConfig, runId: string | undefined): Promise<Set<string>> {
  const needed = new Set<string>();
  const all = addressSetPartitions('pn.utxos', config);
  if (config.schemaContracts?.['pn.utxos'] !== 'discard' && (await warehouse.listDrift()).some((d) => d.stream === 'pn.utxos' && d.kind === 'new_field')) {
    return new Set(all.map((p) => p.id));
  }
  for (const p of all) {
    const network = String(p.params.network);
    const set = p.params.addresses as string[];
    const chains = config.networks.find((n) => n.network === network)?.chains ?? [];
    let walked = runId !== undefined;
    for (const chain of chains) {
      const cp = walked ? await warehouse.readCheckpoint(partitionId('pn.transactions', network, chain, setTag('addrs', set))) : undefined;
      walked = cp?.complete === true && cp.cursor.runId === runId;
      if (!walked) break;
    }
    if (!walked) {
      needed.add(p.id);
      continue;
    }
    const rows = await warehouse.query(PENDING_EXPORTS, [network, String(p.params.blockchainId), set.join(',')]);
    if (Number(rows[0]?.n ?? 0) > 0) needed.add(p.id);
  }
  return needed;
}
