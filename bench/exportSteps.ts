/**
 * Where the exports of a worker went, step by step: reads the commit profiles a run wrote with
 * GLACIER_COMMIT_PROF=<dir>/prof-%p.json (one per worker process; activities/warehouse/commitProfile.ts)
 * and prints, for each of the last `--last` exports of each worker, the calls and CPU ms of every
 * export step (activities/lake/export.ts: attach, upkeep, ensure, diff, commit, size, bookkeeping, total).
 * With --rss, the worker's peak RSS MB within each step instead, and in parentheses how much the step
 * raised it above where it began (a run with GLACIER_COMMIT_PROF_RSS=1).
 *
 *   GLACIER_COMMIT_PROF=/tmp/prof-%p.json npm run -s bench:nights -- --skip-nights --skip-idle --scaling 1,100 --checks none
 *   npx tsx bench/exportSteps.ts /tmp/prof-*.json.jsonl [--last 3] [--rss]
 *
 * With the scaling worlds, the first worker started is the 1x world's.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Totals {
  calls: number;
  cpuMs: number;
  peakKb?: number;
  raiseKb?: number;
}
interface Snapshot {
  t: number;
  kinds: Record<string, Totals>;
}

const { values: opts, positionals: files } = parseArgs({ allowPositionals: true, options: { last: { type: 'string' }, rss: { type: 'boolean', default: false } } });
const last = Number(opts.last ?? 3);
if (files.length === 0 || !Number.isInteger(last) || last < 1) {
  console.error('usage: npx tsx bench/exportSteps.ts <profile.json.jsonl>... [--last N]');
  process.exit(2);
}

for (const file of files) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Snapshot);
  const exports = (s: Snapshot) => s.kinds['export:total']?.calls ?? 0;
  // The snapshot written when each export ended (its total's calls went up).
  const ends = lines.filter((s, i) => i > 0 && exports(s) > exports(lines[i - 1]));
  const window = ends.slice(-(last + 1));
  console.log(`${file}: ${ends.length} exports; the last ${window.length - 1}, ${opts.rss ? 'calls and peak RSS MB (+ raised)' : 'calls and CPU ms'} per step`);
  const steps = [...new Set(window.flatMap((s) => Object.keys(s.kinds)))].filter((k) => k.startsWith('export:')).sort();
  for (const step of steps) {
    const cells = window.slice(1).map((s, i) => {
      const a = window[i].kinds[step] ?? { calls: 0, cpuMs: 0 };
      const b = s.kinds[step] ?? { calls: 0, cpuMs: 0 };
      const mb = (kb = 0) => Math.round(kb / 1024);
      if (opts.rss) return `${String(b.calls - a.calls).padStart(4)}x ${b.peakKb && b.calls > a.calls ? `${String(mb(b.peakKb)).padStart(5)} MB (+${String(mb(b.raiseKb)).padStart(3)})` : '        -        '}`;
      return `${String(b.calls - a.calls).padStart(4)}x ${String(b.cpuMs - a.cpuMs).padStart(5)} ms`;
    });
    console.log(`  ${step.padEnd(24)}${cells.join('   ')}`);
  }
}
