import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { chromium, type Browser } from 'playwright-core';
import { chromiumExecutable } from '../helpers/chromium.ts';
import { startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';
import { runCli } from '../helpers/runCli.ts';
import { lakeOf } from '../../worker/paths.ts';
import { liveLakeFiles } from '../helpers/lakeCompare.ts';
import { REPORT_CHARTS } from '../../cli/report/renderReport.ts';
import { allTables } from '../../activities/streams/catalog.ts';
import type { ReportData } from '../../activities/report/reportData.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

/** What a Chart.js instance on the page holds and drew, read inside the browser. */
interface DrawnChart {
  id: string;
  type: string;
  labels: string[];
  datasets: { label: string; data: (number | null)[]; marks: number }[];
  /** Marks with a value > 0 whose pixel on the canvas is painted (sampled around the mark). */
  paintedMarks: number;
  /** Marks with a value > 0. */
  positiveMarks: number;
}

/** label -> value map of one dataset (null values left out). */
const byLabel = (chart: DrawnChart, dataset = 0) =>
  Object.fromEntries(chart.labels.map((l, i) => [l, chart.datasets[dataset].data[i]]).filter(([, v]) => v !== null && v !== undefined));

/** series label -> (x label -> value). */
const bySeries = (chart: DrawnChart) => Object.fromEntries(chart.datasets.map((d, i) => [d.label, byLabel(chart, i)]));

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

describe('glacier-etl report, opened in headless Chromium', () => {
  let h: PipelineHarness;
  let browser: Browser | undefined;
  let query: (sql: string) => Promise<Record<string, unknown>[]>;
  let reportPath: string;
  let reportJson: ReportData;

  beforeAll(async () => {
    // First, so a missing browser fails before the pipeline runs.
    const executablePath = await chromiumExecutable();
    h = await startPipelineHarness();
    const dataDir = h.config.dataDir;
    const backfill = await h.run({ mode: 'backfill' });
    expect(backfill.partitions.filter((p) => p.state !== 'done')).toEqual([]);
    // Two nights: the simulator grows, then a sync with its export, twice (each run records its size at its end).
    h.sim.advance(3);
    await h.run({ mode: 'sync', exportParquet: true });
    h.sim.advance(3);
    await h.run({ mode: 'sync', exportParquet: true });
    // The CLI as a client of the cluster (TEMPORAL_ADDRESS): the running worker, which owns the
    // warehouse, reads the report's data; the CLI writes the page.
    const { temporalAddress: _address, apiKeyCount: _keys, ...fileConfig } = h.config;
    const configPath = join(dataDir, 'config.yaml');
    writeFileSync(configPath, toYaml({ ...fileConfig, temporal: { ...fileConfig.temporal, taskQueue: h.tw.taskQueue } }));
    reportPath = join(dataDir, 'report.html');
    const cli = await runCli(['--config', configPath, 'report', '--out', reportPath], { env: { TEMPORAL_ADDRESS: inject('temporalAddress') }, timeoutMs: 90_000 });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^report: .*report\.html \(\d+ KiB\)\n$/);
    const json = await runCli(['--config', configPath, 'report', '--json'], { env: { TEMPORAL_ADDRESS: inject('temporalAddress') }, timeoutMs: 90_000 });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    reportJson = JSON.parse(json.stdout) as ReportData;
    query = (sql) => h.runtime.warehouse.query(sql);
    browser = await chromium.launch({
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // Three runs back to back spend more than the keyless tier's 6,000 CU a minute, so the client
    // paces itself and a run can wait most of a minute for the next window (seen: a 50 s sweep on a
    // loaded machine, 6 s on a quiet one). The hook's time allows two such waits on top of the work.
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('is one self-contained file: no request leaves the page, no console error, every chart drew marks from the warehouse numbers', async () => {
    const html = readFileSync(reportPath, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/cdn/i);
    expect(html).toContain('Chart.js v4');

    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || (message.type() === 'warning' && !message.text().includes('willReadFrequently'))) problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(reportPath).href, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    // The page itself logs nothing, not even a warning (the pixel probe below makes Chromium warn about readbacks).
    expect(problems).toEqual([]);

    const drawn: DrawnChart[] = await page.evaluate(() => {
      type ChartLike = {
        config: { type: string };
        data: { labels: unknown[]; datasets: { label: string; data: (number | null)[] }[] };
        options: { indexAxis?: string };
        currentDevicePixelRatio: number;
        canvas: { getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null };
        getDatasetMeta(i: number): { data: { x: number; y: number; base?: number }[]; hidden: boolean | null };
      };
      const report = (globalThis as unknown as { glacierReport: { charts: Record<string, ChartLike> } }).glacierReport;
      return Object.entries(report.charts).map(([id, chart]) => {
        const ctx = chart.canvas.getContext('2d')!;
        const ratio = chart.currentDevicePixelRatio;
        const horizontal = chart.options.indexAxis === 'y';
        let paintedMarks = 0;
        let positiveMarks = 0;
        chart.data.datasets.forEach((dataset, i) => {
          chart.getDatasetMeta(i).data.forEach((mark, j) => {
            const value = dataset.data[j];
            if (value === null || !(value > 0)) return;
            positiveMarks++;
            // Middle of a bar, or the point itself for lines.
            const isBar = mark.base !== undefined && chart.config.type === 'bar';
            const x = isBar && horizontal ? (mark.x + mark.base!) / 2 : mark.x;
            const y = isBar && !horizontal ? (mark.y + mark.base!) / 2 : mark.y;
            const pixels = ctx.getImageData(Math.round(x * ratio) - 1, Math.round(y * ratio) - 1, 3, 3).data;
            let painted = false;
            for (let p = 0; p < pixels.length; p += 4) if (pixels[p + 3] > 200) painted = true;
            if (painted) paintedMarks++;
          });
        });
        return {
          id,
          type: chart.config.type,
          labels: chart.data.labels.map(String),
          datasets: chart.data.datasets.map((d, i) => ({ label: d.label, data: d.data, marks: chart.getDatasetMeta(i).data.length })),
          paintedMarks,
          positiveMarks,
        };
      });
    });

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);

    // Every chart of the page is there and drew one mark per value, each one painted on its canvas.
    expect(drawn.map((c) => c.id).sort()).toEqual([...REPORT_CHARTS].sort());
    for (const chart of drawn) {
      expect(chart.labels.length, chart.id).toBeGreaterThan(0);
      for (const d of chart.datasets) expect(d.marks, `${chart.id} ${d.label}`).toBe(chart.labels.length);
      expect(chart.positiveMarks, chart.id).toBeGreaterThan(0);
      expect(chart.paintedMarks, chart.id).toBe(chart.positiveMarks);
    }
    const chart = (id: string) => drawn.find((c) => c.id === id)!;

    // The numbers come from the warehouse: the test's own queries, not the report's SQL files.
    const rowsPerStream = await query('SELECT stream, sum(rows)::DOUBLE AS n FROM _glacier_checkpoints GROUP BY stream');
    expect(byLabel(chart('rows-per-stream'))).toEqual(Object.fromEntries(rowsPerStream.map((r) => [r.stream, r.n])));

    const utcDay = (column: string) => `strftime(CAST(to_timestamp(${column}) AT TIME ZONE 'UTC' AS DATE), '%Y-%m-%d')`;
    const evmTxs = await query(`SELECT 'evm ' || chain_id AS chain, ${utcDay('block_timestamp')} AS day, count(*)::DOUBLE AS n FROM evm_transactions GROUP BY ALL`);
    const pnTxs = await query(`SELECT network || ' ' || blockchain_id AS chain, ${utcDay('block_timestamp')} AS day, count(*)::DOUBLE AS n FROM pn_transactions GROUP BY ALL`);
    const series = (rows: Record<string, unknown>[]) => {
      const out: Record<string, Record<string, unknown>> = {};
      for (const r of rows) (out[String(r.chain)] ??= {})[String(r.day)] = r.n;
      return out;
    };
    expect(evmTxs.length).toBeGreaterThan(0);
    expect(pnTxs.length).toBeGreaterThan(0);
    expect(bySeries(chart('daily-transactions'))).toEqual(series(evmTxs));
    expect(bySeries(chart('daily-pn-transactions'))).toEqual(series(pnTxs));
    const transfers = await query(`SELECT 'evm ' || chain_id AS chain, ${utcDay('block_timestamp')} AS day, count(*)::DOUBLE AS n FROM evm_token_transfers GROUP BY ALL`);
    expect(transfers.length).toBeGreaterThan(0);
    expect(bySeries(chart('daily-token-transfers'))).toEqual(series(transfers));

    const stake = await query(`SELECT node_id, sum(amount_staked)::DOUBLE / 1e9 AS staked, sum(amount_delegated)::DOUBLE / 1e9 AS delegated
      FROM pn_validators WHERE validation_status IN ('active', 'pending') GROUP BY node_id ORDER BY staked DESC LIMIT 50`);
    const stakeChart = chart('validator-stake');
    expect(stakeChart.labels.length).toBe(stake.length);
    for (const row of stake) {
      const i = stakeChart.labels.indexOf(String(row.node_id));
      expect(i, String(row.node_id)).toBeGreaterThanOrEqual(0);
      expect(close(stakeChart.datasets[0].data[i]!, Number(row.staked)), `${row.node_id} staked: page ${stakeChart.datasets[0].data[i]}, warehouse ${row.staked}`).toBe(true);
      expect(close(stakeChart.datasets[1].data[i]!, Number(row.delegated)), `${row.node_id} delegated: page ${stakeChart.datasets[1].data[i]}, warehouse ${row.delegated}`).toBe(true);
    }

    // Status over time: the last point of the SCD2 history is the current status of every validation.
    const current = await query('SELECT coalesce(validation_status, \'unknown\') AS status, count(*)::DOUBLE AS n FROM pn_validator_status_history WHERE valid_to IS NULL GROUP BY ALL');
    const status = bySeries(chart('validator-status'));
    const lastAt = chart('validator-status').labels.at(-1)!;
    expect(Object.fromEntries(Object.entries(status).map(([s, points]) => [s, points[lastAt]]).filter(([, v]) => v !== undefined))).toEqual(
      Object.fromEntries(current.map((r) => [r.status, r.n])),
    );

    const rewards = await query(`SELECT address, sum(reward_amount)::DOUBLE / 1e9 AS amount FROM (SELECT unnest(addresses) AS address, reward_amount FROM pn_rewards) GROUP BY address`);
    const rewardChart = byLabel(chart('rewards-per-address'));
    expect(Object.keys(rewardChart).length).toBe(Math.min(50, rewards.length));
    for (const [label, amount] of Object.entries(rewardChart)) {
      const address = label.replace(/ \(.*\)$/, '');
      const row = rewards.find((r) => r.address === address);
      expect(row, label).toBeDefined();
      expect(close(Number(amount), Number(row!.amount)), `${label}: page ${amount}, warehouse ${row!.amount}`).toBe(true);
    }

    // CU: as the runs recorded them.
    const [{ cu: recordedCu }] = await query('SELECT sum(cu)::DOUBLE AS cu FROM _glacier_sync_runs');
    const cuChart = chart('cu-per-run');
    const cuTotal = cuChart.datasets.reduce((n, d) => n + d.data.reduce<number>((m, v) => m + (v ?? 0), 0), 0);
    expect(cuTotal).toBeGreaterThan(0);
    expect(cuTotal).toBe(Number(recordedCu));
    expect(html).toContain('As recorded by the runs');

    const runs = await query('SELECT sum(rows)::DOUBLE AS rows, sum(pages)::DOUBLE AS pages FROM _glacier_sync_runs GROUP BY run_id ORDER BY min(started_at)');
    expect(runs.length).toBe(3);
    const history = chart('sync-rows-pages');
    expect(history.datasets[0].data).toEqual(runs.map((r) => r.rows));
    expect(history.datasets[1].data).toEqual(runs.map((r) => r.pages));
    expect(chart('sync-duration').datasets[0].data.every((s) => s !== null && s > 0)).toBe(true);

    // Nights: one point per sync run at the rows stored when it ended, its CU as its run records hold it.
    const syncs = reportJson.nights.filter((n) => n.mode === 'sync');
    expect(chart('nights-cost').labels).toEqual(syncs.map((n) => String(n.rows_stored)));
    const syncCu = await query(`SELECT sum(cu)::DOUBLE AS cu FROM _glacier_sync_runs WHERE mode = 'sync' GROUP BY run_id ORDER BY min(started_at)`);
    expect(chart('nights-cost').datasets[0]).toMatchObject({ label: 'CU', data: syncCu.map((r) => r.cu) });
    expect(chart('nights-time').datasets.find((d) => d.label === 'export (s)')!.data.every((s) => s !== null && s > 0)).toBe(true);
    expect(await page.locator('#nights-table tbody tr').count()).toBe(2);
    expect(await page.locator('#nights-table tbody tr').first().locator('td').first().textContent()).toBe('1');

    // Tables: every partition listed, and the gap checks of verify pass on this warehouse.
    const partitions = await query('SELECT count(*)::INTEGER AS n FROM _glacier_checkpoints');
    expect(await page.locator('#partitions-table tbody tr').count()).toBe(partitions[0].n);
    const streams = await query('SELECT count(DISTINCT stream)::INTEGER AS n FROM _glacier_checkpoints');
    expect(await page.locator('#streams-table tbody tr').count()).toBe(streams[0].n);
    expect(await page.locator('#coverage td.fail').count()).toBe(0);
    await page.close();
  });

  it('report --json: one size record per run, rows stored growing, the lake measured after each export', async () => {
    const nights = reportJson.nights;
    const runIds = await query('SELECT run_id, any_value(mode) AS mode, sum(cu)::DOUBLE AS cu, sum(rows)::DOUBLE AS rows FROM _glacier_sync_runs GROUP BY run_id ORDER BY min(started_at)');
    expect(nights.map((n) => [n.run_id, n.mode, n.cu, n.rows_written])).toEqual(runIds.map((r) => [r.run_id, r.mode, r.cu, r.rows]));
    expect(nights.map((n) => n.mode)).toEqual(['backfill', 'sync', 'sync']);
    const stored = nights.map((n) => n.rows_stored);
    expect(stored[1]).toBeGreaterThan(stored[0]);
    expect(stored[2]).toBeGreaterThan(stored[1]);
    // The last record is what the warehouse holds now (no run since): the test's own counts.
    const counts = await query(allTables().map((t) => `SELECT '${t.name}' AS t, count(*)::DOUBLE AS n FROM ${t.name}`).join(' UNION ALL '));
    expect(nights[2].table_rows).toEqual(Object.fromEntries(counts.map((r) => [r.t, r.n])));
    expect(stored[2]).toBe(counts.reduce((n, r) => n + Number(r.n), 0));
    // The backfill did not export; each sync did, and the last one saw the lake as it is now.
    expect(nights[0]).toMatchObject({ lake_files: null, lake_bytes: null, export_seconds: null });
    // What a reader of the current snapshot may open: the lake's live data and delete files, from its catalog.
    const lake = await liveLakeFiles(lakeOf(h.config));
    expect(lake.files).toBeGreaterThan(0);
    expect(nights[2].lake_files).toBe(lake.files);
    expect(nights[2].lake_bytes).toBe(lake.bytes);
    // Each run logs its record with its context (one line per run).
    const logged = h.logs().split('\n').filter((l) => l.includes('"run size recorded"')).map((l) => JSON.parse(l) as { workflowId: string; rowsStored: number; ms: number });
    expect(logged.map((l) => l.rowsStored)).toEqual(stored);
    expect(logged.map((l) => l.workflowId)).toEqual(nights.map((n) => n.run_id.split('/')[0]));
    for (const n of nights.slice(1)) {
      expect(n.lake_files, n.run_id).toBeGreaterThan(0);
      expect(n.warehouse_bytes, n.run_id).toBeGreaterThan(0);
      expect(n.sync_seconds, n.run_id).toBeGreaterThan(0);
      expect(n.export_seconds, n.run_id).toBeGreaterThan(0);
      expect(n.wall_seconds, n.run_id).toBe(n.sync_seconds! + n.export_seconds!);
    }
  });

  it('escapes what it shows: markup in a value stays text', async () => {
    const { renderReport } = await import('../../cli/report/renderReport.ts');
    const { loadReportData } = await import('../../activities/report/reportData.ts');
    const data = await loadReportData(query, { source: '<img src=x onerror=alert(1)></script><script>alert(2)</script>' });
    const text = renderReport(data);
    expect(text).not.toContain('<img src=x');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // In the embedded JSON, "<" is escaped so nothing can close the script element.
    const json = text.slice(text.indexOf('id="report-data">'), text.indexOf('</script>', text.indexOf('id="report-data">')));
    expect(json).not.toMatch(/<\/?script/i);
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.setContent(text, { waitUntil: 'load' });
    expect(await page.locator('header p').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(problems).toEqual([]);
    await page.close();
  });
});
