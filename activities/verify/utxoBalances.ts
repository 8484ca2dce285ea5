import type { VerifyFinding } from '../ports.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';

/** Balances recomputed from stored UTXOs against the balances endpoint's snapshot (filled in once the PN tables land). */
export async function utxoBalanceFindings(warehouse: Warehouse): Promise<VerifyFinding[]> {
  void warehouse;
  return [];
}
