import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneWorkflowBundles } from '../../worker/workflowBundle.ts';

describe('workflow bundle cache', () => {
  it('keeps the current bundle, the 5 most recently used and any used within a day; removes the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
    const now = Date.parse('2026-11-21T12:00:00Z');
    const day = 86_400_000;
    const bundle = (i: number, usedMsAgo: number): string => {
      const path = join(dir, `${i.toString(16).padStart(16, '0')}.js`);
      writeFileSync(path, '// bundle');
      const t = new Date(now - usedMsAgo);
      utimesSync(path, t, t);
      return path;
    };
    const current = bundle(99, 30 * day);
    // Ten old bundles used 2..11 days ago, two used within the day, and files that are not bundles.
    for (let i = 0; i < 10; i++) bundle(i, (2 + i) * day);
    bundle(50, 3_600_000);
    bundle(51, 60_000);
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, `${'0'.repeat(16)}.js.123.tmp`), 'x');

    const removed = pruneWorkflowBundles(dir, current, now).map((p) => p.slice(dir.length + 1)).sort();
    // Kept: the current one, the two used today, and the three next most recent (2, 3, 4 days ago).
    expect(removed).toEqual([3, 4, 5, 6, 7, 8, 9].map((i) => `${i.toString(16).padStart(16, '0')}.js`));
    expect(readdirSync(dir).sort()).toEqual(
      [
        ...[0, 1, 2, 0x32, 0x33, 99].map((i) => `${i.toString(16).padStart(16, '0')}.js`),
        `${'0'.repeat(16)}.js.123.tmp`,
        'notes.txt',
      ].sort(),
    );
  });
});
