import type { TemporalInstall } from '../worker/temporalBinary.ts';

/** What the demo's first summary line reports of the pipeline run. */
export interface DemoCounts {
  partitions: number;
  done: number;
  failed: number;
  rows: number;
  pages: number;
}

const WHAT: Record<TemporalInstall['action'], string> = { built: 'Temporal CLI built', downloaded: 'Temporal CLI downloaded', installed: 'Temporal CLI installed' };

/**
 * The demo's summary line: the run's own time, and apart from it the one-time setup the first demo
 * on a machine waits for (building the Temporal CLI takes minutes, once), so the run's figure means
 * the same on a first and on a later demo.
 */
export function demoSummaryLine(counts: DemoCounts, elapsedMs: number, setup?: TemporalInstall): string {
  const run = ((elapsedMs - (setup?.ms ?? 0)) / 1000).toFixed(1);
  return (
    `demo: ${counts.done}/${counts.partitions} partitions, ${counts.rows} rows, ${counts.pages} pages in ${run}s` +
    (counts.failed ? `, ${counts.failed} FAILED` : '') +
    (setup ? ` (one-time setup: ${WHAT[setup.action]} in ${(setup.ms / 1000).toFixed(1)}s)` : '')
  );
}
