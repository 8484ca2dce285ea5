import { describe, expect, it } from 'vitest';
import { demoSummaryLine } from '../../cli/demoSummary.ts';

/** Issue 40: the demo's summary line gives the run's time and the one-time setup apart. */
describe("the demo's summary line", () => {
  const counts = { partitions: 84, done: 84, failed: 0, rows: 90308, pages: 474 };

  it('a first demo: the run without the Temporal CLI build, the build apart', () => {
    expect(demoSummaryLine(counts, 224_100, { action: 'built', ms: 192_000 })).toBe('demo: 84/84 partitions, 90308 rows, 474 pages in 32.1s (one-time setup: Temporal CLI built in 192.0s)');
    expect(demoSummaryLine(counts, 40_000, { action: 'downloaded', ms: 7_900 })).toBe('demo: 84/84 partitions, 90308 rows, 474 pages in 32.1s (one-time setup: Temporal CLI downloaded in 7.9s)');
  });

  it('a later demo: the run alone, as the README quotes it', () => {
    expect(demoSummaryLine(counts, 32_100)).toBe('demo: 84/84 partitions, 90308 rows, 474 pages in 32.1s');
  });

  it('failed partitions are counted after the run, before the setup', () => {
    expect(demoSummaryLine({ ...counts, done: 82, failed: 2 }, 224_100, { action: 'built', ms: 192_000 })).toBe(
      'demo: 82/84 partitions, 90308 rows, 474 pages in 32.1s, 2 FAILED (one-time setup: Temporal CLI built in 192.0s)',
    );
  });
});
