/**
 * `npm run bench:release`: the working tree against the previous release, as users run them. The
 * previous release is the newest released entry of CHANGELOG.md (its `Commit:` line), checked out
 * and built in a temporary git worktree (test/upgrade/previousRelease.ts, as the upgrade test does).
 * Each build's own CLI (`node <dir>/bin/glacier-etl.js backfill --no-export`, embedded dev server)
 * backfills the peer world (bench/peers/world.ts: 10,000 EVM blocks, 5,000 P-chain transactions,
 * 1,000 validators; four lists; rate limits far above use) from one simulator process, at the default
 * configuration (every warehouse setting at its default), rounds alternating previous, working tree,
 * previous, working tree... in one window. Each round runs the four lists together ("all"), each
 * list alone, and the four lists on a world of 2% the size ("fixed": what a run costs whatever it
 * loads), so the four lists' CPU per item above the fixed cost is printed too.
 *
 * Per run: items (each build's own `sql` counts its tables), wall time, the CPU of the CLI process
 * (client, Temporal worker, sync core and DuckDB: user + system from process.resourceUsage() at its
 * exit, through a preload), the CPU of the whole command (the dev server too, /usr/bin/time), the CLI
 * process's peak RSS (VmHWM) and the commits its log says ran out of DuckDB's buffer memory. Prints the
 * medians per build and the ratios working tree / previous release (below 1 is less; items/s above 1 is
 * faster), with each round's own ratio beside the median.
 *
 *   npm run bench:release                          3 rounds, the four lists together, each alone, and on the 2% world
 *   npm run bench:release -- --rounds 5 --only all  the four lists together only
 *   npm run bench:release -- --previous <dir>      a release already built there (or GLACIER_PREVIOUS_RELEASE_DIR)
 *   npm run bench:release -- --against 0.1.0       an older released entry of CHANGELOG.md instead of the newest
 *   npm run bench:release -- --scale 0.2           a fifth of the world, for a quick look
 *
 * The machine is shared: compare the ratios of one run, not figures across runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildPreviousRelease, previousRelease, type BuiltRelease } from '../test/upgrade/previousRelease.ts';
import { fmt, startBenchSimulator, tempDir, UNLIMITED } from './benchWorld.ts';
import { bareWalk, COUNT_SQL, PEER_SEED, PEER_STREAMS, peerLists, peerSize, writePeerConfig } from './peers/world.ts';
import { measure } from './processTree.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** `fixed`: the four lists on a world of 2% the size, so the run is mostly its fixed cost (start-up, dev server, workflows). */
const CASES = ['all', ...PEER_STREAMS, 'fixed'] as const;
const FIXED_SCALE = 0.02;
type Case = (typeof CASES)[number];

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    scale: { type: 'string', default: '1' },
    only: { type: 'string' },
    previous: { type: 'string' },
    against: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const scale = Number(values.scale);
const cases = (values.only?.split(',') ?? [...CASES]) as Case[];
if (!Number.isInteger(rounds) || rounds < 1 || !(scale > 0) || cases.some((c) => !CASES.includes(c))) {
  console.error(`bench:release: --rounds must be a positive integer, --scale a positive number, --only a list of ${CASES.join(', ')}`);
  process.exit(2);
}

const started = performance.now();
const log = (line: string) => console.log(`[${fmt((performance.now() - started) / 1000, 0).padStart(4)} s] ${line}`);

interface Build {
  label: string;
  dir: string;
  bin: string;
}

interface Run {
  build: string;
  case: Case;
  round: number;
  items: Record<string, number>;
  total: number;
  seconds: number;
  /** The CLI process: client, worker, sync core, DuckDB. */
  cliCpu: number;
  /** The whole command: the CLI process and its dev server. */
  treeCpu: number;
  cliPeakMb: number;
  outOfMemory: number;
}

// The CLI's own CPU and peak RSS, written at its exit (both builds run unchanged: a preload adds it).
const work = tempDir('release');
const PRELOAD = join(work.dir, 'exitUsage.mjs');
writeFileSync(
  PRELOAD,
  `import { writeFileSync } from 'node:fs';
const out = process.env.GLACIER_BENCH_USAGE;
if (out) process.on('exit', () => { const u = process.resourceUsage(); writeFileSync(out, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssKb: u.maxRSS })); });
`,
);
const ENV = { LOG_LEVEL: 'warn', TEMPORAL_ADDRESS: '', GLACIER_DATA_DIR: '', GLACIER_API_KEY: '' };

function counts(build: Build, configFile: string): Record<string, number> {
  const r = spawnSync(process.execPath, [build.bin, '--config', configFile, 'sql', '--json', COUNT_SQL], { encoding: 'utf8', env: { ...process.env, ...ENV } });
  if (r.status !== 0) throw new Error(`${build.label}: counting rows failed: ${r.stderr}`);
  const [row] = JSON.parse(r.stdout) as Record<string, number | string>[];
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

async function runOnce(build: Build, c: Case, round: number, on: Parameters<typeof writePeerConfig>[0]): Promise<Run> {
  const dir = join(work.dir, `${build.label}-${c}-${round}`);
  const configFile = writePeerConfig(on, dir);
  const usageFile = join(dir, 'usage.json');
  const streams = c === 'all' || c === 'fixed' ? [] : ['--streams', c];
  const m = await measure(process.execPath, ['--import', PRELOAD, build.bin, '--config', configFile, 'backfill', '--no-export', '--json', ...streams], { ...ENV, GLACIER_BENCH_USAGE: usageFile }, build.dir);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpu: number; maxRssKb: number };
  const all = counts(build, configFile);
  const items = c === 'all' || c === 'fixed' ? all : { [c]: all[c] };
  rmSync(dir, { recursive: true, force: true });
  return {
    build: build.label,
    case: c,
    round,
    items,
    total: Object.values(items).reduce((a, b) => a + b, 0),
    seconds: m.seconds,
    cliCpu: usage.cpu,
    treeCpu: m.cpuSeconds,
    cliPeakMb: usage.maxRssKb / 1024,
    outOfMemory: (m.stderr.match(/ran out of buffer memory/g) ?? []).length,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function describeTree(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' + changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('bench:release runs the compiled CLI: run `npm run build` first (npm run bench:release does)');
const reuse = values.previous ?? process.env.GLACIER_PREVIOUS_RELEASE_DIR;
let built: BuiltRelease | undefined;
const release = reuse ? { ...previousRelease(undefined, values.against), dir: reuse } : (built = buildPreviousRelease(log, values.against));
if (!existsSync(join(release.dir, 'dist', 'cli', 'main.js'))) throw new Error(`${release.dir}: no built release there (no dist/cli/main.js)`);
if (built) log(`release ${release.version} built in ${fmt(built.buildSeconds, 0)} s`);
const previous: Build = { label: release.version, dir: release.dir, bin: join(release.dir, 'bin', 'glacier-etl.js') };
const tree: Build = { label: 'working tree', dir: ROOT, bin: join(ROOT, 'bin', 'glacier-etl.js') };
const treeAt = describeTree();

const size = peerSize(scale);
log(`world: ${fmt(size.evmBlocks)} EVM blocks, ${fmt(size.pnTxsPerChain)} primary-network transactions per chain, ${fmt(size.validators)} validators`);
const sim = await startBenchSimulator({ seed: PEER_SEED, size, rateLimits: UNLIMITED });
const small = cases.includes('fixed') ? await startBenchSimulator({ seed: PEER_SEED, size: peerSize(FIXED_SCALE * scale), rateLimits: UNLIMITED }) : undefined;
try {
  // Warm-up walk of every list (simulator caches, JIT), so the first run does not pay for them.
  const warm = await bareWalk(sim.baseUrl, peerLists(sim));
  if (small) await bareWalk(small.baseUrl, peerLists(small));
  log(`warm-up walk: ${fmt(warm.pages)} pages in ${fmt(warm.seconds, 1)} s`);
  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const c of cases) {
      for (const build of [previous, tree]) {
        const r = await runOnce(build, c, round, c === 'fixed' ? small! : sim);
        runs.push(r);
        log(
          `round ${round}/${rounds} ${c.padEnd(16)} ${build.label.padEnd(12)} ${fmt(r.total).padStart(6)} items ${fmt(r.seconds, 1).padStart(5)} s ` +
            `${fmt(r.total / r.seconds).padStart(6)} items/s, CPU ${fmt(r.cliCpu, 1)} s CLI / ${fmt(r.treeCpu, 1)} s command, peak RSS ${fmt(r.cliPeakMb)} MB` +
            (r.outOfMemory ? `, ${r.outOfMemory} commit(s) out of memory` : ''),
        );
      }
    }
  }

  // The same items from both builds, or the ratios compare different work.
  const mismatches: string[] = [];
  for (const c of cases) {
    const ref = runs.find((r) => r.case === c)!;
    for (const r of runs.filter((x) => x.case === c)) {
      for (const [list, n] of Object.entries(ref.items)) if (r.items[list] !== n) mismatches.push(`${c} round ${r.round} ${r.build}: ${list} ${r.items[list]} vs ${n}`);
    }
  }

  type Figure = 'rate' | 'cliCpu' | 'treeCpu' | 'rss';
  const figure = (r: Run, f: Figure) => (f === 'rate' ? r.total / r.seconds : f === 'cliCpu' ? (r.cliCpu / r.total) * 1000 : f === 'treeCpu' ? (r.treeCpu / r.total) * 1000 : r.cliPeakMb);
  const of = (build: Build, c: Case) => runs.filter((r) => r.build === build.label && r.case === c);
  const table: string[][] = [['list', 'build', 'items', 'items/s', 'CLI CPU s / 1k items', 'command CPU s / 1k items', 'CLI peak RSS', 'out of memory']];
  for (const c of cases) {
    for (const build of [previous, tree]) {
      const rs = of(build, c);
      table.push([c, build.label === previous.label ? `${build.label} (${release.commit.slice(0, 7)})` : `${build.label} (${treeAt})`, fmt(rs[0].total), fmt(median(rs.map((r) => figure(r, 'rate')))), fmt(median(rs.map((r) => figure(r, 'cliCpu'))), 3), fmt(median(rs.map((r) => figure(r, 'treeCpu'))), 3), `${fmt(median(rs.map((r) => figure(r, 'rss'))))} MB`, String(rs.reduce((n, r) => n + r.outOfMemory, 0))]);
    }
  }
  const ratioTable: string[][] = [['list', 'items/s', 'CLI CPU per item', 'command CPU per item', 'CLI peak RSS']];
  const ratio = (c: Case, f: Figure) => {
    const per = Array.from({ length: rounds }, (_, i) => figure(of(tree, c)[i], f) / figure(of(previous, c)[i], f));
    const whole = median(of(tree, c).map((r) => figure(r, f))) / median(of(previous, c).map((r) => figure(r, f)));
    return `${fmt(whole, 2)}${rounds > 1 ? ` (${per.map((x) => fmt(x, 2)).join(', ')})` : ''}`;
  };
  for (const c of cases) ratioTable.push([c === 'fixed' ? `fixed (${fmt(FIXED_SCALE * 100)}% world)` : c, ratio(c, 'rate'), ratio(c, 'cliCpu'), ratio(c, 'treeCpu'), ratio(c, 'rss')]);
  // The four lists' CPU per item above the fixed cost: (all - fixed) / (items of all - items of fixed), per round.
  if (cases.includes('all') && cases.includes('fixed')) {
    const above = (build: Build, i: number, cpu: (r: Run) => number) => {
      const [a, f] = [of(build, 'all')[i], of(build, 'fixed')[i]];
      return (cpu(a) - cpu(f)) / (a.total - f.total);
    };
    const marginal = (cpu: (r: Run) => number) => {
      const per = Array.from({ length: rounds }, (_, i) => above(tree, i, cpu) / above(previous, i, cpu));
      const whole = median(Array.from({ length: rounds }, (_, i) => above(tree, i, cpu))) / median(Array.from({ length: rounds }, (_, i) => above(previous, i, cpu)));
      return `${fmt(whole, 2)}${rounds > 1 ? ` (${per.map((x) => fmt(x, 2)).join(', ')})` : ''}`;
    };
    ratioTable.push(['all above the fixed cost', '', marginal((r) => r.cliCpu), marginal((r) => r.treeCpu), '']);
  }

  const print = (rows: string[][]) => {
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    for (const [i, row] of rows.entries()) {
      console.log(`| ${row.map((cell, j) => cell.padEnd(widths[j])).join(' | ')} |`);
      if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    }
  };
  const items = cases.includes('all') ? of(tree, 'all')[0].total : undefined;
  console.log(`\nbench:release: working tree (${treeAt}) against ${release.version} (${release.commit.slice(0, 7)}), peer world${items ? ` (${fmt(items)} items)` : ''}, default configuration, ${rounds} round(s) alternating, ${fmt((performance.now() - started) / 1000, 0)} s`);
  console.log(`medians per build (CLI: the glacier-etl process; command: with its dev server):\n`);
  print(table);
  console.log(`\nworking tree / ${release.version}, medians${rounds > 1 ? ' (each round)' : ''}: items/s above 1 is faster, CPU and RSS below 1 is less\n`);
  print(ratioTable);
  if (mismatches.length) {
    console.log(`\nITEM COUNTS DIFFER:\n  ${mismatches.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log(`\nitem counts: both builds loaded the same items per list in every run`);
} finally {
  await sim.close();
  await small?.close();
  work.remove();
  built?.remove();
}
