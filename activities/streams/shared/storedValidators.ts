import type { Warehouse } from '../../warehouse/warehouse.ts';

/**
 * Node ids the validators stream has stored, per network, sorted: the input of derived reward
 * partitions. With shards, the pipeline asks every shard and merges the lists (sorted the same way),
 * so the derived partitions are the ones a single warehouse would plan.
 */
export async function storedValidatorNodeIds(warehouse: Warehouse): Promise<Record<string, string[]>> {
  const rows = await warehouse.query('SELECT DISTINCT network, node_id FROM pn_validators ORDER BY network, node_id');
  const byNetwork: Record<string, string[]> = {};
  for (const r of rows) (byNetwork[String(r.network)] ??= []).push(String(r.node_id));
  return byNetwork;
}
