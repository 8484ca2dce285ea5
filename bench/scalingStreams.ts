/**
 * Which streams carry a longer history's extra items: the rows the pages held and the pages, per
 * stream, of the last sync run in each warehouse that `bench:nights --keep` left for its scaling
 * worlds (`<data-dir>/scale-<k>x/data/warehouse.duckdb`), side by side.
 *
 *   npm run bench:nights -- --nights 1 --days 1 --scaling 1,100 --skip-idle --keep --checks none --data-dir /tmp/bnscale
 *   npx tsx bench/scalingStreams.ts /tmp/bnscale
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir || !existsSync(dir)) {
  console.error('usage: npx tsx bench/scalingStreams.ts <bench:nights --keep data dir>');
  process.exit(1);
}
const scales = readdirSync(dir)
  .filter((d) => /^scale-\d+x$/.test(d) && existsSync(join(dir, d, 'data', 'warehouse.duckdb')))
  .sort((a, b) => parseInt(a.slice(6), 10) - parseInt(b.slice(6), 10));
if (scales.length === 0) {
  console.error(`${dir}: no scale-<k>x/data/warehouse.duckdb (run bench:nights with --keep)`);
  process.exit(1);
}

const LAST_RUN = `WITH last AS (SELECT run_id FROM _glacier_sync_runs GROUP BY run_id ORDER BY max(updated_at) DESC LIMIT 1)
  SELECT stream, sum(rows)::BIGINT AS rows, sum(pages)::BIGINT AS pages FROM _glacier_sync_runs WHERE run_id IN (SELECT run_id FROM last) GROUP BY stream`;

const figures = new Map<string, Map<string, { rows: number; pages: number }>>();
for (const scale of scales) {
  const instance = await DuckDBInstance.create(join(dir, scale, 'data', 'warehouse.duckdb'), { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  for (const r of (await connection.runAndReadAll(LAST_RUN)).getRowObjectsJS()) {
    const stream = String(r.stream);
    if (!figures.has(stream)) figures.set(stream, new Map());
    figures.get(stream)!.set(scale, { rows: Number(r.rows), pages: Number(r.pages) });
  }
  connection.closeSync();
  instance.closeSync();
}

const cell = (f: { rows: number; pages: number } | undefined) => (f ? `${f.rows.toLocaleString('en-US')} / ${f.pages}` : '-');
const first = scales[0];
const last = scales.at(-1)!;
console.log(`| stream | ${scales.map((s) => s.slice(6)).join(' | ')} | extra rows, ${last.slice(6)} - ${first.slice(6)} |`);
console.log(`|---|${scales.map(() => '---:').join('|')}|---:|`);
const extra = (m: Map<string, { rows: number }>) => (m.get(last)?.rows ?? 0) - (m.get(first)?.rows ?? 0);
for (const [stream, m] of [...figures].sort((a, b) => extra(b[1]) - extra(a[1]) || a[0].localeCompare(b[0]))) {
  console.log(`| ${stream} | ${scales.map((s) => cell(m.get(s))).join(' | ')} | ${extra(m) >= 0 ? '+' : ''}${extra(m)} |`);
}
