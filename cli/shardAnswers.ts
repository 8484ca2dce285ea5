import type { CostTotals, StreamCost } from '../activities/sync/streamCosts.ts';

const TOTALS: (keyof CostTotals)[] = ['walks', 'pages', 'items', 'requests', 'cu', 'walkCu', 'optimumCu', 'rejected429'];

function addTotals<T extends CostTotals>(into: T, from: CostTotals): T {
  for (const k of TOTALS) into[k] += from[k];
  return into;
}

/**
 * Per-stream CU accounting of several shards as one table: totals add up; a pipeline run has one
 * run id on every shard, so "last run" adds the shards' last runs that share the newest run id seen
 * first (shards listed in config order).
 */
export function mergeStreamCosts(perShard: StreamCost[][]): StreamCost[] {
  const byStream = new Map<string, StreamCost>();
  for (const costs of perShard) {
    for (const c of costs) {
      const into = byStream.get(c.stream);
      if (!into) {
        byStream.set(c.stream, { ...c, ...(c.lastRun ? { lastRun: { ...c.lastRun } } : {}) });
        continue;
      }
      addTotals(into, c);
      if (c.lastRun && into.lastRun?.runId === c.lastRun.runId) addTotals(into.lastRun, c.lastRun);
      else if (c.lastRun && !into.lastRun) into.lastRun = { ...c.lastRun };
    }
  }
  return [...byStream.values()];
}
