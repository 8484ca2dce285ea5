/**
 * bench:nights' results as files (issue 26 item 5, "the report shows the nights"): nights.json (every
 * figure), nights.md (the tables and the "Done when" lines) and nights.html, one self-contained page
 * whose charts plot each night's cost (CPU, wall, CU) against the warehouse's size in stored rows,
 * with Chart.js inlined as `glacier-etl report` does (cli/report/renderReport.ts).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { WorldSize } from '../tools/simulator/index.ts';
import { fmt } from './benchWorld.ts';
import { PHASES, type NightFigures } from './nightRun.ts';

export interface ScalingRow {
  scale: number;
  days: number;
  storedRows: number;
  backfill: { seconds: number; cpu: number };
  /** The measured nights' figures: each phase's CPU, wall and CU the median over them (medianNight). */
  night: NightFigures;
  /** How many measured nights `night` summarizes (1 when absent: results of earlier runs). */
  nights?: number;
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One night standing for several: the one of median total CPU, with every phase's figures the median of all of them. */
export function medianNight(nights: readonly NightFigures[]): NightFigures {
  const byCpu = [...nights].sort((a, b) => a.cpu.total - b.cpu.total);
  const base = byCpu[Math.floor((byCpu.length - 1) / 2)];
  const phases = Object.fromEntries(
    PHASES.map((phase) => [phase, { cpuS: median(nights.map((n) => n.phases[phase].cpuS)), wallS: median(nights.map((n) => n.phases[phase].wallS)), cu: median(nights.map((n) => n.phases[phase].cu)), requests: median(nights.map((n) => n.phases[phase].requests)) }]),
  ) as NightFigures['phases'];
  return { ...base, phases };
}

export interface DoneWhen {
  item: string;
  figure: string;
  bound: string;
  verdict: 'PASS' | 'MISS' | 'n/a' | string;
}

export interface NightsResults {
  startedAt: string;
  args: Record<string, unknown>;
  nights?: {
    days: number;
    stepsPerDay: number;
    size: Partial<WorldSize>;
    backfill: { seconds: number; cpu: number };
    nights: NightFigures[];
    truth: { equal: boolean; expected: number; lost: number; duplicated: number; examples: string[] };
    /** The night whose scheduled run did not finish in time, and what its activities last failed on. */
    stalled?: { night: number; seconds: number; reasons: string[] };
  };
  /** The median night by worker + server CPU, and every measured night's (absent in older results: one night). */
  idle?: { partitions: number; night: NightFigures; nights?: number[] };
  scaling?: ScalingRow[];
  scalingFailures?: { scale: number; days: number; reason: string }[];
  doneWhen: DoneWhen[];
  totalSeconds?: number;
}

const TABLE_AT = [1, 10, 100, 365];
const mb = (bytes: number) => bytes / 2 ** 20;
const ratio = (a: number, b: number) => (b > 0 ? a / b : a === 0 ? 1 : Infinity);

/** Markdown table: one column per night shown. */
export function nightsTable(nights: NightFigures[]): string {
  const rows: [string, (n: NightFigures) => string][] = [
    ['rows the pages held (a versioned table writes only the changed ones)', (n) => fmt(n.run.rowsAdded)],
    ['rows stored (lake)', (n) => fmt(n.storedRows)],
    ['CU (run records)', (n) => fmt(n.records.cu)],
    ['requests (run records)', (n) => fmt(n.records.requests)],
    ['CU charged (simulator: sync + checks)', (n) => `${fmt(n.phases.sync.cu)} + ${fmt(n.phases.checks.cu)}`],
    ['wall s', (n) => fmt(n.wallS, 1)],
    ['CPU s: worker + server + client', (n) => `${fmt(n.cpu.worker, 1)} + ${fmt(n.cpu.server, 1)} + ${fmt(n.cpu.client, 1)} = ${fmt(n.cpu.total, 1)}`],
    ['sync: CPU s / wall s', (n) => `${fmt(n.phases.sync.cpuS, 1)} / ${fmt(n.phases.sync.wallS, 1)}`],
    ['export: CPU s / wall s', (n) => `${fmt(n.phases.export.cpuS, 1)} / ${fmt(n.phases.export.wallS, 1)}`],
    ['export: files written', (n) => fmt(n.lake.written)],
    ['checks: CPU s / wall s', (n) => `${fmt(n.phases.checks.cpuS, 1)} / ${fmt(n.phases.checks.wallS, 1)}`],
    ['lake files', (n) => fmt(n.lake.files)],
    ['lake MB', (n) => fmt(mb(n.lake.bytes), 1)],
    ['lake catalog: snapshots / data-file rows', (n) => `${fmt(n.lake.snapshots ?? 0)} / ${fmt(n.lake.catalogFiles ?? 0)}`],
    ['warehouse MB', (n) => fmt(mb(n.warehouseBytes), 1)],
    ['warehouse bytes per stored row', (n) => fmt(n.warehouseBytes / Math.max(1, n.storedRows), 1)],
    ['Temporal state MB (SQLite)', (n) => fmt(mb(n.temporal.bytes), 1)],
    ['history events: scheduled run / night', (n) => `${fmt(n.temporal.runEvents)} / ${fmt(n.temporal.nightEvents)}`],
    ['history events stored (all workflows)', (n) => (n.temporal.totalEvents === undefined ? '-' : `${fmt(n.temporal.totalEvents)} (${fmt(n.temporal.totalWorkflows ?? 0)} workflows)`)],
    ['worker RSS MB (peak)', (n) => `${fmt(n.worker.rssMb)} (${fmt(n.worker.peakMb)})`],
    ['analyst query, one day: ms', (n) => fmt(n.queries.dayMs)],
    ['analyst query, whole history: ms', (n) => fmt(n.queries.historyMs)],
    ['checks', (n) => (n.checks.ok ? 'green' : 'FAILED')],
  ];
  const head = `| night | ${nights.map((n) => String(n.night)).join(' | ')} |`;
  const sep = `|---|${nights.map(() => '---:').join('|')}|`;
  return [head, sep, ...rows.map(([label, f]) => `| ${label} | ${nights.map(f).join(' | ')} |`)].join('\n');
}

export function scalingTable(rows: ScalingRow[]): string {
  const first = rows[0];
  const last = rows.at(-1)!;
  const head = `| phase | figure | ${rows.map((r) => `${r.scale}x (${r.days} d, ${fmt(r.storedRows)} rows${(r.nights ?? 1) > 1 ? `, median of ${r.nights} nights` : ''})`).join(' | ')} | ${last.scale}x / ${first.scale}x |`;
  const lines = [head, `|---|---|${rows.map(() => '---:').join('|')}|---:|`];
  for (const phase of PHASES) {
    for (const [label, key, digits] of [['CPU s', 'cpuS', 2], ['wall s', 'wallS', 2], ['CU', 'cu', 0]] as const) {
      const v = (r: ScalingRow) => r.night.phases[phase][key];
      lines.push(`| ${phase} | ${label} | ${rows.map((r) => fmt(v(r), digits)).join(' | ')} | ${fmt(ratio(v(last), v(first)), 2)} |`);
    }
  }
  lines.push(`| night | rows the pages held | ${rows.map((r) => fmt(r.night.run.rowsAdded)).join(' | ')} | ${fmt(ratio(last.night.run.rowsAdded, first.night.run.rowsAdded), 2)} |`);
  lines.push(`| night | CU (run records) | ${rows.map((r) => fmt(r.night.records.cu)).join(' | ')} | ${fmt(ratio(last.night.records.cu, first.night.records.cu), 2)} |`);
  return lines.join('\n');
}



function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function markdown(r: NightsResults): string {
  const tables = { nightsTable, scalingTable };
  const out = [`# bench:nights, ${r.startedAt}`, '', `Arguments: \`${JSON.stringify(r.args)}\``, ''];
  if (r.nights) {
    const ns = r.nights.nights;
    out.push(`## ${ns.length} nights on a ${r.nights.days}-day world (${r.nights.stepsPerDay} steps a day)`, '', `Backfill: ${r.nights.backfill.seconds.toFixed(1)} s, ${r.nights.backfill.cpu.toFixed(1)} CPU s.`, '');
    if (r.nights.stalled) out.push(`**Night ${r.nights.stalled.night} stalled**: no end within ${r.nights.stalled.seconds} s. ${r.nights.stalled.reasons.map((x) => `\`${x.slice(0, 300)}\``).join('; ')}`, '');
    out.push(tables.nightsTable(ns.filter((n) => TABLE_AT.includes(n.night) || n === ns.at(-1))), '');
    out.push('Every night (CPU s and wall s are worker + server + client; rows are the lake\'s):', '', '| night | rows stored | rows added | CPU s | wall s | sync CPU s | export CPU s | checks CPU s | CU | lake files | warehouse MB | checks |', '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const n of ns) {
      out.push(`| ${n.night} | ${n.storedRows} | ${n.run.rowsAdded} | ${n.cpu.total.toFixed(2)} | ${n.wallS.toFixed(2)} | ${n.phases.sync.cpuS.toFixed(2)} | ${n.phases.export.cpuS.toFixed(2)} | ${n.phases.checks.cpuS.toFixed(2)} | ${n.records.cu} | ${n.lake.files} | ${(n.warehouseBytes / 2 ** 20).toFixed(1)} | ${n.checks.ok ? 'green' : 'FAILED'} |`);
    }
    out.push('');
  }
  if (r.idle) out.push('## A night with no growth (small world)', '', tables.nightsTable([r.idle.night]), '');
  if (r.scaling?.length) out.push('## 1x / 10x / 100x histories, the same night of growth', '', tables.scalingTable(r.scaling), '');
  out.push('## "Done when"', '', '| verdict | item | figure | bound |', '|---|---|---|---|', ...r.doneWhen.map((d) => `| ${d.verdict} | ${d.item} | ${d.figure} | ${d.bound} |`), '');
  return out.join('\n');
}

function html(r: NightsResults, md: string): string {
  const chartFile = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
  const chartJs = readFileSync(chartFile, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const ns = r.nights?.nights ?? [];
  const points = (f: (n: NightFigures) => number) => ns.map((n) => ({ x: n.storedRows, y: Number(f(n).toFixed(3)), night: n.night }));
  const data = {
    cpu: [
      { label: 'CPU s (worker + server + client)', data: points((n) => n.cpu.total) },
      { label: 'sync CPU s', data: points((n) => n.phases.sync.cpuS) },
      { label: 'export CPU s', data: points((n) => n.phases.export.cpuS) },
      { label: 'checks CPU s', data: points((n) => n.phases.checks.cpuS) },
    ],
    wall: [{ label: 'wall s', data: points((n) => n.wallS) }],
    cu: [{ label: 'CU (run records)', data: points((n) => n.records.cu) }],
    size: [
      { label: 'lake files', data: points((n) => n.lake.files) },
      { label: 'warehouse MB', data: points((n) => n.warehouseBytes / 2 ** 20) },
      { label: 'worker RSS MB', data: points((n) => n.worker.rssMb) },
    ],
  };
  // The embedded JSON may not close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  const script = `const data = ${json};
for (const [id, datasets] of Object.entries(data)) {
  new Chart(document.getElementById(id), { type: 'line', data: { datasets }, options: { parsing: true, animation: false, scales: { x: { type: 'linear', title: { display: true, text: 'rows stored (warehouse size)' } } }, plugins: { tooltip: { callbacks: { title: (items) => 'night ' + items[0].raw.night } } } } });
}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>glacier-etl: cost per night against warehouse size</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}canvas{max-height:320px;margin-bottom:2em}pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:1em}</style>
</head><body>
<h1>Cost per night against warehouse size</h1>
<p>bench:nights, ${escapeHtml(r.startedAt)}: each point is one night (sync, export and the nightly checks on a running worker), placed at the warehouse's size after it.</p>
<h2>CPU per night</h2><canvas id="cpu"></canvas>
<h2>Wall time per night</h2><canvas id="wall"></canvas>
<h2>Compute units per night</h2><canvas id="cu"></canvas>
<h2>Lake, warehouse, worker</h2><canvas id="size"></canvas>
<h2>Tables</h2><pre>${escapeHtml(md)}</pre>
<script>${chartJs}</script>
<script>${script}</script>
</body></html>
`;
}

export function writeNightsReport(dir: string, r: NightsResults): { json: string; markdown: string; html: string } {
  const files = { json: join(dir, 'nights.json'), markdown: join(dir, 'nights.md'), html: join(dir, 'nights.html') };
  const md = markdown(r);
  writeAtomically(files.json, `${JSON.stringify(r, null, 2)}\n`);
  writeAtomically(files.markdown, md);
  writeAtomically(files.html, html(r, md));
  return files;
}

// `npx tsx bench/nightsReport.ts <dir>`: writes nights.md and nights.html again from <dir>/nights.json.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!) && process.argv[2]) {
  const dir = process.argv[2];
  const files = writeNightsReport(dir, JSON.parse(readFileSync(join(dir, 'nights.json'), 'utf8')) as NightsResults);
  console.log(`${files.markdown}\n${files.html}`);
}
