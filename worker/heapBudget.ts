import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './logger.ts';

/**
 * Keeps the worker's JavaScript heap near a budget. V8 sizes its heap for throughput: with gigabytes
 * of headroom it lets garbage from parsed pages and Arrow batches pile up to several hundred MB before
 * a full collection, so RSS drifts far above what the worker holds live. The usual fix, a
 * --max-old-space-size flag, only works at process start (and turns a spike into a crash); this runs
 * a full collection when the used heap passes the budget (or 1.5x the live heap after the last
 * collection, if that is more), checked every `intervalMs`.
 */
export function startHeapBudget(budgetMb: number, logger: Logger, intervalMs = 1_000): () => void {
  if (budgetMb <= 0) return () => undefined;
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let collections = 0;
  const budget = budgetMb * 1024 * 1024;
  // When live data alone nears the budget, collect only once garbage reaches half of it again, so
  // a process whose live heap outgrows the budget does not collect every tick.
  let threshold = budget;
  const timer = setInterval(() => {
    if (process.memoryUsage().heapUsed < threshold) return;
    gc();
    threshold = Math.max(budget, process.memoryUsage().heapUsed * 1.5);
    if (++collections % 100 === 1) logger.debug({ budgetMb, collections, heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1048576) }, 'heap budget: full collection');
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
