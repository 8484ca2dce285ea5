import type { ShardHoldings } from '../activities/shards/shardLedger.ts';

/** Pure rules of the sharded layout's assignment (deterministic; unit-tested in test/shards/). */

/** The answering shards that hold a placement group (more than one is a conflict an operator made). */
export function holdersOf(group: string, answers: Iterable<ShardHoldings>): string[] {
  const out: string[] = [];
  for (const h of answers) if (h.groups.includes(group)) out.push(h.shard);
  return out;
}

/**
 * Spreads new placement groups over the shards: largest group first (by partition count, then by
 * name), each to the shard with the fewest partitions so far (ties: the order of `shards`). `load`
 * is what each shard already runs in this pipeline; it is updated in place.
 */
export function spreadGroups(groups: { group: string; partitions: number }[], shards: string[], load: Map<string, number>): Map<string, string> {
  const out = new Map<string, string>();
  const ordered = [...groups].sort((a, b) => b.partitions - a.partitions || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  for (const g of ordered) {
    let best = shards[0];
    for (const s of shards) if ((load.get(s) ?? 0) < (load.get(best) ?? 0)) best = s;
    out.set(g.group, best);
    load.set(best, (load.get(best) ?? 0) + g.partitions);
  }
  return out;
}

/** Merges per-shard lists of validators' node ids into one sorted, duplicate-free list per network (as one warehouse would list them). */
export function mergeValidatorNodeIds(lists: Record<string, string[]>[]): Record<string, string[]> {
  const merged = new Map<string, Set<string>>();
  for (const list of lists) for (const [network, ids] of Object.entries(list)) for (const id of ids) merged.set(network, (merged.get(network) ?? new Set()).add(id));
  return Object.fromEntries([...merged.keys()].sort().map((network) => [network, [...merged.get(network)!].sort()]));
}
