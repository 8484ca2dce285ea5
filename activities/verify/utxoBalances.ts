import type { VerifyFinding } from '../../common/activityTypes.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';

/**
 * Cross-stream check: balances recomputed from stored UTXOs against the balances endpoint's snapshot,
 * for every address set, or (sinceEpoch) those whose balances walk finished since then.
 */
export async function utxoBalanceFindings(warehouse: Warehouse, sinceEpoch = 0): Promise<VerifyFinding[]> {
  const rows = await warehouse.query(sqlFile('verify/utxoBalances.sql'), [BigInt(sinceEpoch)]);
  const mismatched = rows.filter((r) => String(r.balance) !== String(r.from_utxos));
  const sets = new Set(rows.map((r) => `${r.network}/${r.blockchain_id}/${r.address_set}`));
  return [
    {
      check: 'pn_balances equal the sum of stored unspent UTXOs',
      ok: mismatched.length === 0,
      detail: mismatched.length
        ? `differs for ${mismatched
            .slice(0, 5)
            .map((r) => `${r.network}/${r.blockchain_id} ${String(r.asset_id).slice(0, 8)}…: balance ${r.balance} vs UTXOs ${r.from_utxos}`)
            .join('; ')}`
        : rows.length
          ? `${rows.length} (address set, asset) balances match across ${sets.size} address sets`
          : 'no balances stored',
    },
  ];
}
