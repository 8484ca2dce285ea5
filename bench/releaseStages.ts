/**
 * `npm run bench:release-stages`: where the write path's CPU goes, stage by stage, in the previous
 * release and in the working tree, on the same world in one window. The previous release is built as
 * bench:release builds it (CHANGELOG.md's newest `Commit:`, test/upgrade/previousRelease.ts); each
 * build's own sync core backfills the peer world's four lists (bench/peers/world.ts) in a child
 * process (bench/releaseStagesRun.ts: syncBatch one partition at a time, 20 pages per batch, default
 * warehouse settings, no Temporal), rounds alternating previous, working tree, ... Prints per list
 * the CPU ms per page of each stage (medians over the rounds), the statements per commit and their
 * CPU, and the working tree / previous ratio of the whole.
 *
 *   npm run bench:release-stages                     2 rounds
 *   npm run bench:release-stages -- --rounds 3 --previous <dir> --scale 0.2
 *   npm run bench:release-stages -- --memory-limit 256MB   both builds at that buffer limit
 *   npm run bench:release-stages -- --detail               and the costliest statements and functions
 *   npm run bench:release-stages -- --tree <dir>           another checkout (node_modules installed) in place of the working tree
 *
 * JavaScript stages are the main thread's CPU shared out by a V8 CPU profile's samples; SQL stages are
 * the process's CPU over each statement (DuckDB's threads). The machine is shared: compare the two
 * builds of one run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildPreviousRelease, previousRelease, type BuiltRelease } from '../test/upgrade/previousRelease.ts';
import { fmt, startBenchSimulator, tempDir, UNLIMITED } from './benchWorld.ts';
import { bareWalk, PEER_SEED, peerLists, peerSize } from './peers/world.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' }, scale: { type: 'string', default: '1' }, previous: { type: 'string' }, 'memory-limit': { type: 'string' }, detail: { type: 'boolean', default: false }, tree: { type: 'string' } } });
const rounds = Number(values.rounds);
const scale = Number(values.scale);

interface ListProfile {
  list: string;
  pages: number;
  rows: number;
  items: number;
  commits: number;
  callsPerCommit: number;
  statementsPerCommit: number;
  processMs: number;
  mainThreadMs: number;
  outOfMemory: number;
  failedBatches: number;
  js: Record<string, number>;
  sql: Record<string, { calls: number; cpuMs: number }>;
  otherSql: Record<string, number>;
  detail?: { sqlMsPerPage: Record<string, number>; jsMsPerPage: Record<string, number> };
}

const started = performance.now();
const log = (line: string) => console.log(`[${fmt((performance.now() - started) / 1000, 0).padStart(4)} s] ${line}`);

function profileOnce(root: string, simFile: string, dir: string): Promise<ListProfile[]> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'releaseStagesRun.ts'), '--root', root, '--sim', simFile, '--dir', dir, ...(values['memory-limit'] ? ['--memory-limit', values['memory-limit']] : []), ...(values.detail ? ['--detail'] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`stage profile of ${root} exited ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ListProfile[]);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const reuse = values.previous ?? process.env.GLACIER_PREVIOUS_RELEASE_DIR;
let built: BuiltRelease | undefined;
const release = reuse ? { ...previousRelease(), dir: reuse } : (built = buildPreviousRelease(log));
if (!existsSync(join(release.dir, 'node_modules'))) throw new Error(`${release.dir}: no installed release there`);
const work = tempDir('release-stages');
const sim = await startBenchSimulator({ seed: PEER_SEED, size: peerSize(scale), rateLimits: UNLIMITED });
try {
  const warm = await bareWalk(sim.baseUrl, peerLists(sim));
  log(`warm-up walk: ${fmt(warm.pages)} pages in ${fmt(warm.seconds, 1)} s`);
  const simFile = join(work.dir, 'sim.json');
  writeFileSync(simFile, JSON.stringify({ baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, world: sim.world }));
  // --tree <dir>: another checkout (with its node_modules) in place of the working tree, e.g. a commit to compare.
  const other = values.tree ? { label: `tree ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: values.tree, encoding: 'utf8' }).trim()}`, root: values.tree } : { label: 'working tree', root: ROOT };
  const builds = [{ label: release.version, root: release.dir }, other];
  const results = new Map<string, ListProfile[][]>();
  for (let round = 1; round <= rounds; round++) {
    for (const b of builds) {
      const r = await profileOnce(b.root, simFile, join(work.dir, `${b.label}-${round}`));
      results.set(b.label, [...(results.get(b.label) ?? []), r]);
      log(`round ${round}/${rounds} ${b.label}: ${r.map((l) => `${l.list} ${fmt(l.processMs / l.pages, 2)} ms/page`).join(', ')}`);
    }
  }

  // Medians per build, list and stage.
  const lists = results.get(builds[0].label)![0].map((l) => l.list);
  const at = (label: string, list: string) => results.get(label)!.map((r) => r.find((l) => l.list === list)!);
  const perPage = (label: string, list: string, pick: (l: ListProfile) => number) => median(at(label, list).map((l) => pick(l) / l.pages));
  const first = results.get(builds[1].label)![0][0];
  const jsStages = Object.keys(first.js);
  const sqlStages = Object.keys(first.sql);
  const header = ['CPU ms per page', ...lists.flatMap((l) => [`${l} ${builds[0].label}`, builds[1].label])];
  const rows: string[][] = [];
  const row = (name: string, pick: (l: ListProfile) => number, digits = 2) => rows.push([name, ...lists.flatMap((l) => builds.map((b) => fmt(perPage(b.label, l, pick), digits)))]);
  for (const s of jsStages) row(s, (l) => l.js[s] ?? 0);
  for (const s of sqlStages) row(`SQL: ${s}`, (l) => l.sql[s]?.cpuMs ?? 0);
  row('sum of stages', (l) => Object.values(l.js).reduce((a, b) => a + b, 0) + Object.values(l.sql).reduce((a, b) => a + b.cpuMs, 0));
  row('process CPU (measured)', (l) => l.processMs);
  const plain = (name: string, pick: (l: ListProfile) => number, digits = 1) => rows.push([name, ...lists.flatMap((l) => builds.map((b) => fmt(median(at(b.label, l).map(pick)), digits)))]);
  plain('pages', (l) => l.pages, 0);
  plain('items', (l) => l.items, 0);
  plain('commits', (l) => l.commits, 0);
  plain('calls to DuckDB per commit', (l) => l.callsPerCommit);
  plain('statements per commit', (l) => l.statementsPerCommit);
  plain('SQL CPU ms per commit', (l) => Object.values(l.sql).reduce((a, b) => a + b.cpuMs, 0) / Math.max(1, l.commits));
  plain('commits out of memory (retried after a checkpoint)', (l) => l.outOfMemory, 0);
  plain('batches failed (retried)', (l) => l.failedBatches, 0);
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  console.log(`\nbench:release-stages: ${release.version} (${release.commit.slice(0, 7)}) and ${builds[1].label}, peer world, ${values['memory-limit'] ? `warehouse.memoryLimit ${values['memory-limit']}` : 'default configuration'}, ${rounds} round(s) alternating, medians\n`);
  console.log(`| ${header.map((h, i) => h.padEnd(widths[i])).join(' | ')} |`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(`| ${r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`);
  console.log(`\n${builds[1].label} / ${builds[0].label}, process CPU per page: ` + lists.map((l) => `${l} ${fmt(perPage(builds[1].label, l, (x) => x.processMs) / perPage(builds[0].label, l, (x) => x.processMs), 2)}`).join(', '));
  if (values.detail) {
    for (const b of builds) {
      for (const l of results.get(b.label)!.at(-1)!) {
        console.log(`\n${b.label}, ${l.list} (last round), costliest statements and functions, CPU ms per page:`);
        for (const [k, v] of [...Object.entries(l.detail!.sqlMsPerPage), ...Object.entries(l.detail!.jsMsPerPage)]) console.log(`  ${fmt(v, 3).padStart(7)}  ${k}`);
      }
    }
  }
  const unclassed = [...results.values()].flat(2).flatMap((l) => Object.entries(l.otherSql));
  if (unclassed.length) console.log(`\nSQL classed as other: ${[...new Set(unclassed.map(([s]) => s))].join(' | ')}`);
} finally {
  await sim.close();
  work.remove();
  built?.remove();
}
