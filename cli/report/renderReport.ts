import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Cell, NightFigure, ReportData, Row } from '../../activities/report/reportData.ts';

/** The charts the page draws, in page order: id, title, and the data they come from. */
export const REPORT_CHARTS = [
  'rows-per-stream',
  'daily-transactions',
  'daily-pn-transactions',
  'daily-token-transfers',
  'validator-stake',
  'validator-status',
  'rewards-per-address',
  'cu-per-run',
  'sync-rows-pages',
  'sync-duration',
  'nights-cost',
  'nights-time',
] as const;
export type ReportChartId = (typeof REPORT_CHARTS)[number];

const html = (value: Cell | undefined): string =>
  value === null || value === undefined
    ? ''
    : String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside <script type="application/json">: nothing in it may close the element or start a comment. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Chart.js's own minified UMD build, inlined: the page must work offline, opened from disk. */
function chartLibrary(): string {
  // The package exports only its module entries; the UMD build sits beside them in dist/.
  const file = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
  // The source map is not shipped with the page; a reference to it would only make DevTools ask.
  const text = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  if (/<\/script|<!--/i.test(text)) throw new Error(`${file}: cannot be inlined in a <script> element`);
  return text;
}

const pageScript = () => readFileSync(new URL('./reportPage.js', import.meta.url), 'utf8');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function table(columns: [key: string, title: string][], rows: Row[], options: { numeric?: string[]; empty?: string; id?: string } = {}): string {
  if (rows.length === 0) return `<p class="empty">${html(options.empty ?? 'nothing stored')}</p>`;
  const numeric = new Set(options.numeric ?? []);
  const head = columns.map(([key, title]) => `<th${numeric.has(key) ? ' class="num"' : ''}>${html(title)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map(([key]) => `<td${numeric.has(key) ? ' class="num"' : ''}>${html(r[key])}</td>`).join('')}</tr>`).join('\n');
  return `<div class="table"${options.id ? ` id="${html(options.id)}"` : ''}><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function chart(id: ReportChartId, title: string, hasData: boolean, note = ''): string {
  const body = hasData ? `<div class="chart"><canvas data-chart="${id}" role="img" aria-label="${html(title)}"></canvas></div>` : `<p class="empty">no data for this chart</p>`;
  return `<figure><figcaption>${html(title)}</figcaption>${body}${note ? `<p class="note">${html(note)}</p>` : ''}</figure>`;
}

function duration(seconds: Cell): string {
  const s = Number(seconds);
  if (!Number.isFinite(s)) return '';
  if (s < 120) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  if (s < 172800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86400).toFixed(1)} days`;
}

/** The loaded range a checkpoint cursor describes (see activities/sync/walk.ts). */
function loadedRange(cursorText: Cell): string {
  let cursor: Record<string, unknown>;
  try {
    cursor = JSON.parse(String(cursorText)) as Record<string, unknown>;
  } catch {
    return '';
  }
  const iso = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  if (typeof cursor.snapshotAt === 'number') return `snapshot at ${iso(cursor.snapshotAt)}`;
  if (typeof cursor.hwm === 'number') return `everything up to ${cursor.hwm}` + (typeof cursor.walkTop === 'number' ? `; walking down from ${cursor.walkTop}` : '');
  if (typeof cursor.next === 'number' || typeof cursor.from === 'number') {
    const end = cursor.next ?? cursor.maxSeen;
    return `from ${cursor.from ?? '?'}${end !== undefined ? ` to ${end}` : ''}`;
  }
  return cursor.walkTop !== undefined ? `walking down from ${cursor.walkTop}` : 'not started';
}

/** Coverage and freshness per stream: totals over its partitions, the newest sync and the largest lag. */
function perStream(partitions: Row[]): Row[] {
  const streams = [...new Set(partitions.map((p) => String(p.stream)))];
  return streams.map((stream) => {
    const mine = partitions.filter((p) => p.stream === stream);
    return {
      stream,
      partitions: mine.length,
      complete: mine.filter((p) => p.complete === true).length,
      rows: mine.reduce((n, p) => n + Number(p.rows), 0),
      pages: mine.reduce((n, p) => n + Number(p.pages), 0),
      last_sync: mine.map((p) => String(p.last_sync)).sort().at(-1) ?? null,
      lag: duration(Math.max(...mine.map((p) => Number(p.lag_seconds)))),
    };
  });
}

/** The sync runs (CLI `sync` and the Schedule's nights) in run order: what the Nights section plots. */
export const syncNights = (data: Pick<ReportData, 'nights'>): NightFigure[] => data.nights.filter((n) => n.mode === 'sync');

/** Night 1, 10 and the last (those that exist, each once): the rows of the Nights table. */
export function milestoneNights(nights: readonly NightFigure[]): { night: number; figure: NightFigure }[] {
  const picks = [...new Set([1, 10, nights.length].filter((n) => n >= 1 && n <= nights.length))];
  return picks.map((night) => ({ night, figure: nights[night - 1] }));
}

const megabytes = (bytes: number | null) => (bytes === null ? null : Number((bytes / 1e6).toFixed(2)));
const seconds = (value: number | null) => (value === null ? null : Number(value.toFixed(1)));

/** The Nights section: cost per sync run against the warehouse's size when it ended, and nights 1, 10 and last. */
function nightsSection(data: ReportData): string {
  const nights = syncNights(data);
  const backfills = data.nights.length - nights.length;
  const rows: Row[] = milestoneNights(nights).map(({ night, figure: n }) => ({
    night,
    started: n.started,
    rows_stored: n.rows_stored,
    warehouse_mb: megabytes(n.warehouse_bytes),
    lake_files: n.lake_files,
    lake_mb: megabytes(n.lake_bytes),
    cu: n.cu,
    requests: n.requests,
    rows_written: n.rows_written,
    sync: seconds(n.sync_seconds),
    export: seconds(n.export_seconds),
    wall: seconds(n.wall_seconds),
  }));
  const note = 'x: rows stored in the stream tables when the run ended. A run\'s wall time is sync (first partition start to last commit) + export (last commit to the end of the export); the nightly verify runs after and is not in it.';
  return `<section id="nights">
<h2>Nights</h2>
<p class="note">What each sync run (<code>sync</code> and the Schedule's nights) cost against the size of the warehouse when it ended, from the size record every pipeline run writes at its end (<code>_glacier_run_sizes</code>, kept when run records are pruned).${backfills > 0 ? ` ${html(backfills)} other run${backfills === 1 ? '' : 's'} (backfills) recorded, not plotted.` : ''}</p>
<div class="grid">
${chart('nights-cost', 'Cost per night against rows stored', nights.length > 0, note)}
${chart('nights-time', 'Wall time per night against rows stored', nights.length > 0)}
</div>
${table(
  [['night', 'night'], ['started', 'started (UTC)'], ['rows_stored', 'rows stored'], ['warehouse_mb', 'warehouse MB'], ['lake_files', 'lake files'], ['lake_mb', 'lake MB'], ['cu', 'CU'], ['requests', 'requests'], ['rows_written', 'rows written'], ['sync', 'sync s'], ['export', 'export s'], ['wall', 'wall s']],
  rows,
  { numeric: ['night', 'rows_stored', 'warehouse_mb', 'lake_files', 'lake_mb', 'cu', 'requests', 'rows_written', 'sync', 'export', 'wall'], empty: 'no sync run recorded its size yet', id: 'nights-table' },
)}
</section>`;
}

const STYLE = `
:root { color-scheme: light; --ink: #1f2937; --muted: #6b7280; --line: #e5e7eb; --bad: #b91c1c; --good: #15803d; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: #f9fafb; }
header { padding: 20px 28px; background: #111827; color: #f9fafb; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: #d1d5db; }
main { padding: 8px 28px 40px; max-width: 1400px; }
section { margin-top: 28px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 18px; }
figure { margin: 0; padding: 12px; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.chart { position: relative; height: 300px; }
.table { overflow-x: auto; max-height: 460px; overflow-y: auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { position: sticky; top: 0; background: #f3f4f6; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--good); font-weight: 600; }
.fail { color: var(--bad); font-weight: 600; }
.empty, .note { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; min-width: 150px; }
.card b { display: block; font-size: 20px; }
`;

/** The data the page embeds: the report's, without the per-table rows of every night (in `report --json`, not drawn). */
const pageData = (data: ReportData) => ({ ...data, nights: data.nights.map(({ table_rows: _perTable, ...night }) => night) });

/** The report as one self-contained HTML page: data, Chart.js and the page script all inline. */
export function renderReport(data: ReportData): string {
  const library = chartLibrary();
  const script = pageScript();
  const totalRows = data.partitions.reduce((n, p) => n + Number(p.rows), 0);
  const complete = data.partitions.filter((p) => p.complete === true).length;
  const totalCu = data.cu.reduce((n, c) => n + c.cu, 0);
  const checks: { check: string; ok: boolean; detail: string; warning?: boolean }[] = [...data.checks, ...(data.verifyFindings ?? []).map((f) => ({ check: `verify: ${f.check}`, ok: f.ok, detail: f.detail, warning: f.warning }))];
  const failing = checks.filter((c) => !c.ok).length;
  const cuNote = 'As recorded by the runs: every request charged its endpoint weight, retries and 429s included.';
  const cuPerStream = [...new Set(data.cu.map((c) => c.stream))].map((stream) => {
    const mine = data.cu.filter((c) => c.stream === stream);
    return { stream, pages: mine.reduce((n, c) => n + c.pages, 0), cu: mine.reduce((n, c) => n + c.cu, 0) };
  });

  const csp = `default-src 'none'; script-src ${sha256(library)} ${sha256(script)}; style-src 'unsafe-inline'; img-src data:`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${html(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>glacier-etl report · ${html(data.generatedAt)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>glacier-etl warehouse report</h1>
<p>Generated ${html(data.generatedAt)} from ${html(data.source)}</p>
</header>
<main>
<section id="summary">
<h2>Summary</h2>
<div class="cards">
<div class="card"><b>${html(totalRows.toLocaleString('en-US'))}</b>rows loaded</div>
<div class="card"><b>${html(`${complete}/${data.partitions.length}`)}</b>partitions complete</div>
<div class="card"><b>${html(data.syncRuns.length)}</b>sync runs</div>
<div class="card"><b>${html(totalCu.toLocaleString('en-US'))}</b>CU</div>
<div class="card"><b class="${failing ? 'fail' : 'ok'}">${html(failing ? `${failing} failing` : 'all pass')}</b>checks</div>
</div>
</section>

<section id="coverage">
<h2>Coverage and freshness</h2>
<div class="grid">${chart('rows-per-stream', 'Rows loaded per stream', data.partitions.length > 0)}</div>
<h3>Per stream</h3>
${table(
  [['stream', 'stream'], ['partitions', 'partitions'], ['complete', 'complete'], ['rows', 'rows'], ['pages', 'pages'], ['last_sync', 'last sync (UTC)'], ['lag', 'lag (oldest partition)']],
  perStream(data.partitions),
  { numeric: ['partitions', 'complete', 'rows', 'pages', 'lag'], empty: 'no partition synced yet', id: 'streams-table' },
)}
<h3>Per partition</h3>
${table(
  [['partition_id', 'partition'], ['stream', 'stream'], ['rows', 'rows'], ['pages', 'pages'], ['state', 'state'], ['range', 'loaded'], ['last_sync', 'last sync (UTC)'], ['lag', 'lag']],
  data.partitions.map((p) => ({ ...p, state: p.complete ? 'complete' : 'mid-walk', range: loadedRange(p.cursor), lag: duration(p.lag_seconds) })),
  { numeric: ['rows', 'pages', 'lag'], empty: 'no partition synced yet', id: 'partitions-table' },
)}
<h3>Loaded ranges per chain</h3>
${table(
  [['table_name', 'table'], ['chain', 'chain'], ['rows', 'rows'], ['first_block', 'first block'], ['last_block', 'last block'], ['first_time', 'first (UTC)'], ['last_time', 'last (UTC)']],
  data.loadedRanges,
  { numeric: ['rows', 'first_block', 'last_block'] },
)}
<h3>Gaps and checks</h3>
<div class="table"><table><thead><tr><th>check</th><th>result</th><th>detail</th></tr></thead><tbody>
${checks.map((c) => `<tr><td>${html(c.check)}</td><td class="${c.ok ? 'ok' : 'fail'}">${c.ok ? (c.warning ? 'warn' : 'ok') : 'FAIL'}</td><td>${html(c.detail)}</td></tr>`).join('\n')}
</tbody></table></div>
${data.verifyFindings ? '' : '<p class="note">Warehouse checks only; <code>glacier-etl verify</code> also compares against the API.</p>'}
<h3>Schema drift</h3>
${table(
  [['stream', 'stream'], ['kind', 'kind'], ['path', 'JSON path'], ['count', 'seen'], ['first_run', 'first run'], ['last_run', 'last run'], ['sample', 'sample']],
  data.drift ?? [],
  { numeric: ['count'], empty: 'The API sent nothing the streams did not expect.', id: 'drift' },
)}
</section>

<section id="activity">
<h2>Chain activity</h2>
<div class="grid">
${chart('daily-transactions', 'Transactions per day, EVM chains', data.dailyTransactions.some((r) => String(r.chain).startsWith('evm ')))}
${chart('daily-pn-transactions', 'Transactions per day, primary-network chains', data.dailyTransactions.some((r) => !String(r.chain).startsWith('evm ')))}
${chart('daily-token-transfers', 'Token transfers per day and chain', data.dailyTokenTransfers.length > 0)}
</div>
</section>

<section id="validators">
<h2>Validators</h2>
<div class="grid">
${chart('validator-stake', 'Stake and delegation per validator (current validations)', data.validatorStake.length > 0)}
${chart('validator-status', 'Validations per status over time (SCD2 history)', data.validatorStatus.length > 0)}
</div>
${table(
  [['network', 'network'], ['node_id', 'node'], ['staked_avax', 'staked (AVAX)'], ['delegated_avax', 'delegated (AVAX)'], ['delegators', 'delegators'], ['delegation_txs', 'delegation txs']],
  data.validatorStake,
  { numeric: ['staked_avax', 'delegated_avax', 'delegators', 'delegation_txs'], empty: 'no validators stored' },
)}
</section>

<section id="rewards">
<h2>Rewards per address</h2>
<div class="grid">${chart('rewards-per-address', 'Historical rewards per reward address', data.rewardsPerAddress.length > 0)}</div>
${table([['network', 'network'], ['address', 'address'], ['asset', 'asset'], ['rewards', 'rewards'], ['amount', 'amount']], data.rewardsPerAddress, { numeric: ['rewards', 'amount'], empty: 'no rewards stored' })}
</section>

<section id="cost">
<h2>Compute units</h2>
<div class="grid">${chart('cu-per-run', 'CU per run and stream', data.cu.length > 0, cuNote)}</div>
${table([['stream', 'stream'], ['pages', 'pages'], ['cu', 'CU']], cuPerStream, { numeric: ['pages', 'cu'], empty: 'no runs recorded' })}
</section>

<section id="history">
<h2>Sync history</h2>
<div class="grid">
${chart('sync-rows-pages', 'Rows and pages per run', data.syncRuns.length > 0)}
${chart('sync-duration', 'Duration per run', data.syncRuns.length > 0)}
</div>
${table(
  [['index', '#'], ['run_id', 'run'], ['mode', 'mode'], ['started', 'started (UTC)'], ['partitions', 'partitions'], ['partitions_done', 'finished'], ['rows', 'rows'], ['pages', 'pages'], ['duration', 'duration']],
  data.syncRuns.map((r, i) => ({ ...r, index: i + 1, duration: duration(r.duration_seconds) })),
  { numeric: ['index', 'partitions', 'partitions_done', 'rows', 'pages', 'duration'], empty: 'no runs recorded' },
)}
</section>

${nightsSection(data)}
</main>
<script type="application/json" id="report-data">${scriptJson(pageData(data))}</script>
<script>${library}</script>
<script>${script}</script>
</body>
</html>
`;
}
