/**
 * Which tables' export grows with the history: the nights world (bench:nights' day-scale clocks) at
 * two or more history lengths, each backfilled and exported, then one warm-up night (advance a day,
 * sync, export) and one measured night: advance a day, `sync --no-export`, the worker stopped, and
 * the export run here table by table (exportParquet with `tables: [one]`), each timed (CPU of this
 * process, DuckDB's threads included, and wall) with the files it wrote. Prints one line per table and
 * history, and the ratio of the longest history to the shortest.
 *
 *   npm run -s build && npx tsx bench/exportTables.ts [days=1,30] [--memory-limit 256MB: a setting under measure; the config's default otherwise]
 *
 * Runs on the checkout it is started from (the export is this process's code; the worker and CLI are
 * the compiled ones of the same checkout).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allTables } from '../activities/streams/catalog.ts';
import { exportParquet, lakeTables } from '../activities/warehouse/export.ts';
import { sqlFile } from '../activities/warehouse/sqlFile.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import type { PipelineConfig } from '../worker/config.ts';
import { fmt, tempDir } from './benchWorld.ts';
import { NightService, nightsSize } from './nightsService.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'memory-limit': { type: 'string' }, 'steps-per-day': { type: 'string', default: '24' } } });
const DAYS = (positionals[0] ?? '1,30').split(',').map(Number);
const STEPS_PER_DAY = Number(values['steps-per-day']);
const tune = (config: PipelineConfig) => {
  if (values['memory-limit']) config.warehouse = { ...config.warehouse, memoryLimit: values['memory-limit'] };
};


interface TableFigure {
  cpuMs: number;
  wallMs: number;
  files: number;
  full: boolean;
  rows: number;
}

const log = (line: string) => console.log(line);
const tmp = tempDir('export-tables');
const byDays = new Map<number, Map<string, TableFigure>>();
try {
  for (const days of DAYS) {
    const svc = await NightService.start({ label: `${days}d`, dir: join(tmp.dir, `d${days}`), simulator: { seed: 7, size: nightsSize(days, STEPS_PER_DAY) }, tune, log });
    try {
      await svc.syncedUnexportedNight();
      const warehouse = await openWarehouse(svc.warehouseFile);
      const figures = new Map<string, TableFigure>();
      try {
        for (const def of lakeTables(allTables())) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const r = await exportParquet(warehouse, allTables(), svc.lakeDir, { tables: [def.name] });
          const cpu = process.cpuUsage(c0);
          // A lake-only table (pn_utxo_spends, pn_transaction_rewards) counts the rows of its SELECT.
          const from = def.lakeSource ? `(${sqlFile(def.lakeSource)})` : `"${def.name}"`;
          const [count] = (await warehouse.query(`SELECT count(*) AS n FROM ${from}`)) as { n: bigint }[];
          figures.set(def.name, { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, files: r.files, full: (r.fullTables ?? 0) > 0, rows: Number(count.n) });
        }
      } finally {
        await warehouse.close();
      }
      byDays.set(days, figures);
      const total = [...figures.values()].reduce((a, f) => ({ cpu: a.cpu + f.cpuMs, files: a.files + f.files }), { cpu: 0, files: 0 });
      log(`${days}-day history: the night's export, table by table: ${fmt(total.cpu)} CPU ms, ${total.files} files`);
    } finally {
      await svc.stop();
    }
  }
  const first = byDays.get(DAYS[0])!;
  const last = byDays.get(DAYS.at(-1)!)!;
  log(`\nper table: rows, files written, CPU ms (wall ms) of the night's export; ratio ${DAYS.at(-1)}d / ${DAYS[0]}d CPU`);
  log(['table'.padEnd(28), ...DAYS.map((d) => `${d}d: rows files CPU (wall)`.padStart(30)), 'CPU ratio'.padStart(10)].join(''));
  for (const name of first.keys()) {
    const cells = DAYS.map((d) => {
      const f = byDays.get(d)!.get(name)!;
      return `${fmt(f.rows)} ${f.files}${f.full ? ' full' : ''} ${fmt(f.cpuMs)} (${fmt(f.wallMs)})`.padStart(30);
    });
    log([name.padEnd(28), ...cells, fmt(last.get(name)!.cpuMs / first.get(name)!.cpuMs, 2).padStart(10)].join(''));
  }
  const sum = (m: Map<string, TableFigure>) => [...m.values()].reduce((n, f) => n + f.cpuMs, 0);
  log(`${'total'.padEnd(28)}${DAYS.map((d) => `${fmt(sum(byDays.get(d)!))}`.padStart(30)).join('')}${fmt(sum(last) / sum(first), 2).padStart(10)}`);
} finally {
  rmSync(tmp.dir, { recursive: true, force: true });
}
