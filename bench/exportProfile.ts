/**
 * Where an idle night's export spends its time: the small world (bench/nightsNoop.ts' world: 84
 * partitions, default clocks) backfilled and exported, one sync and export, then a sync with no
 * growth (`sync --no-export`), the worker stopped, and the export run here `runs` times on copies of
 * that state (warehouse and lake), with every DuckDB statement and file-system call it makes timed:
 * CPU of this process (DuckDB's threads included) and wall, summed per kind of statement or call.
 *
 *   npm run -s build && npx tsx bench/exportProfile.ts [runs=3]
 *   EXPORT_PROFILE_STATE=<dir>: keep the idle night's state there, and use it if it is there (no world built).
 *
 * With `--days 1,100`: instead of the idle night, the night of bench/exportTables.ts (the nights world
 * with a history of each length, a warm-up night, then one day of growth and `sync --no-export`), and
 * the figures of each length side by side, then the ratio: per table (the export run table by table,
 * as exportTables.ts does) and per statement or file-system call of the whole export (one call, as
 * the worker runs it), CPU and calls.
 *
 *   npm run -s build && npx tsx bench/exportProfile.ts --days 1,100 [--runs 3]
 */
import fs, { cpSync, existsSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBConnection } from '@duckdb/node-api';
import { allTables } from '../activities/streams/catalog.ts';
import { exportParquet, lakeTables, type ExportResult } from '../activities/warehouse/export.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import { parquetDir, warehousePath } from '../worker/paths.ts';
import { fmt, tempDir } from './benchWorld.ts';
import { NightService, nightsSize } from './nightsService.ts';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { days: { type: 'string' }, runs: { type: 'string' } } });
const runs = Number(opts.runs ?? positionals[0] ?? 3);
const DAYS = opts.days?.split(',').map(Number);
const figures = new Map<string, { calls: number; cpuMs: number; wallMs: number }>();
let depth = 0;
/** Times fn under `kind` (nested calls count only in the outermost). */
function timed<T>(kind: string, fn: () => T): T {
  if (depth > 0) return fn();
  depth++;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const done = () => {
    depth--;
    const c = process.cpuUsage(c0);
    const f = figures.get(kind) ?? { calls: 0, cpuMs: 0, wallMs: 0 };
    f.calls++;
    f.cpuMs += (c.user + c.system) / 1000;
    f.wallMs += performance.now() - t0;
    figures.set(kind, f);
  };
  try {
    const r = fn();
    if (r instanceof Promise) return r.finally(done) as T;
    done();
    return r;
  } catch (error) {
    done();
    throw error;
  }
}
/** A statement's kind: its first words (COPY, SELECT count(*) ..., INSERT OR REPLACE INTO <table>). */
function kindOf(sql: string): string {
  const text = sql.replace(/--[^\n]*\n/g, ' ').replace(/\s+/g, ' ').trim();
  if (/count\(\*\) AS n, bit_xor/.test(text)) return `sql: fingerprint${/GROUP BY/.test(text) ? ' (full table)' : ' (marked partitions)'} ${/ FROM ("[a-z_0-9]+")/.exec(text)?.[1] ?? ''}`;
  if (/^COPY/i.test(text)) return `sql: COPY partition TO parquet ${/ FROM ("[a-z_0-9]+")/.exec(text)?.[1] ?? ''}`;
  return `sql: ${text.slice(0, 60)}`;
}
for (const method of ['run', 'runAndReadAll'] as const) {
  const original = DuckDBConnection.prototype[method] as (this: DuckDBConnection, sql: string, ...rest: unknown[]) => Promise<unknown>;
  (DuckDBConnection.prototype as unknown as Record<string, unknown>)[method] = function (this: DuckDBConnection, sql: string, ...rest: unknown[]) {
    return timed(kindOf(sql), () => original.call(this, sql, ...rest));
  };
}
const fsTable = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const name of ['fsyncSync', 'renameSync', 'openSync', 'closeSync', 'mkdirSync', 'existsSync', 'rmSync', 'readdirSync', 'rmdirSync', 'linkSync', 'writeFileSync', 'lstatSync', 'readlinkSync', 'symlinkSync']) {
  const original = fsTable[name];
  fsTable[name] = (...args: unknown[]) => timed(`fs: ${name}`, () => original(...args));
}
syncBuiltinESMExports();

const log = (line: string) => console.log(line);
const tmp = tempDir('export-profile');
const state = process.env.EXPORT_PROFILE_STATE;
/** The idle night's data directory: a world backfilled, synced and exported, then synced with no growth. */
async function idleNight(into: string): Promise<void> {
  const svc = await NightService.start({ label: 'idle', dir: join(tmp.dir, 'world'), simulator: { seed: 7, size: 'small' }, log });
  try {
    await svc.mustCli(['backfill', '--json']);
    await svc.mustCli(['sync', '--json']);
    await svc.mustCli(['sync', '--no-export', '--json']);
    await svc.stopWorker();
    cpSync(svc.dataDir, into, { recursive: true });
  } finally {
    await svc.stop();
  }
}
/** The night of exportTables.ts on a history of `days` days: backfill, a warm-up night, one day of growth synced without export. */
async function growthNight(days: number, into: string): Promise<void> {
  const svc = await NightService.start({ label: `${days}d`, dir: join(tmp.dir, `world${days}`), simulator: { seed: 7, size: nightsSize(days, 24) }, log });
  try {
    await svc.syncedUnexportedNight();
    cpSync(svc.dataDir, into, { recursive: true });
  } finally {
    await svc.stop();
  }
}

/**
 * One export, as the worker runs it (one call), of a copy of the state in `source` made at `dir` (removed
 * after): its result, CPU and wall ms; `figures` then holds its statements and calls.
 */
async function timedExport(source: string, dir: string): Promise<{ result: ExportResult; cpuMs: number; wallMs: number }> {
  cpSync(source, dir, { recursive: true });
  const warehouse = await openWarehouse(warehousePath(dir));
  try {
    figures.clear();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await exportParquet(warehouse, allTables(), parquetDir(dir));
    const c = process.cpuUsage(c0);
    return { result, cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - t0 };
  } finally {
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = Map<string, { calls: number; cpuMs: number; wallMs: number }>;
const add = (into: Figures, kind: string, f: { calls: number; cpuMs: number; wallMs: number }) => {
  const g = into.get(kind) ?? { calls: 0, cpuMs: 0, wallMs: 0 };
  into.set(kind, { calls: g.calls + f.calls, cpuMs: g.cpuMs + f.cpuMs, wallMs: g.wallMs + f.wallMs });
};

/** --days: each history's night, the export run table by table on copies of its state, summed over `runs`. */
async function byHistory(days: number[]): Promise<void> {
  const base = lakeTables(allTables()).filter((d) => !d.lakeSource);
  const results = new Map<number, { kinds: Figures; tables: Figures; total: { cpuMs: number; wallMs: number; files: number } }>();
  const sourceOf = (d: number) => (state ? join(state, `d${d}`) : join(tmp.dir, `state${d}`));
  for (const d of days) if (!existsSync(sourceOf(d))) await growthNight(d, sourceOf(d));
  // One export first, not counted: the process's first pays for loading and compiling what all use.
  const warm = join(tmp.dir, 'warm-up');
  cpSync(sourceOf(days[0]), warm, { recursive: true });
  const warmWarehouse = await openWarehouse(warehousePath(warm));
  await exportParquet(warmWarehouse, allTables(), parquetDir(warm)).finally(() => warmWarehouse.close());
  rmSync(warm, { recursive: true, force: true });
  for (const d of days) {
    const source = sourceOf(d);
    const kinds: Figures = new Map();
    const tables: Figures = new Map();
    const total = { cpuMs: 0, wallMs: 0, files: 0 };
    for (let run = 1; run <= runs; run++) {
      // The night's export as the worker runs it (one call): the total and its statements and calls.
      const whole = await timedExport(source, join(tmp.dir, `whole${d}-${run}`));
      total.cpuMs += whole.cpuMs;
      total.wallMs += whole.wallMs;
      total.files += whole.result.files;
      for (const [kind, g] of figures) add(kinds, kind, g);
      // The same night table by table (each table's own export: its statements plus one export's bookkeeping).
      const dir = join(tmp.dir, `run${d}-${run}`);
      cpSync(source, dir, { recursive: true });
      const warehouse = await openWarehouse(warehousePath(dir));
      try {
        for (const def of base) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const r = await exportParquet(warehouse, allTables(), parquetDir(dir), { tables: [def.name] });
          const c = process.cpuUsage(c0);
          add(tables, def.name, { calls: r.files, cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - t0 });
        }
      } finally {
        await warehouse.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    results.set(d, { kinds, tables, total });
  }
  const first = results.get(days[0])!;
  const last = results.get(days.at(-1)!)!;
  const per = (v: number) => fmt(v / runs, 1);
  const table = (title: string, pick: (r: typeof first) => Figures, callsLabel: string) => {
    log(`\n${title}: ${callsLabel} and CPU ms (wall ms) per export, mean of ${runs}; CPU ratio ${days.at(-1)}d / ${days[0]}d`);
    const names = [...new Set([...pick(last).keys(), ...pick(first).keys()])].sort((a, b) => (pick(last).get(b)?.cpuMs ?? 0) - (pick(last).get(a)?.cpuMs ?? 0));
    for (const name of names.slice(0, 40)) {
      const cells = days.map((d) => {
        const f = pick(results.get(d)!).get(name);
        return (f ? `${per(f.calls)} ${per(f.cpuMs)} (${per(f.wallMs)})` : '-').padStart(26);
      });
      const a = pick(first).get(name)?.cpuMs;
      const b = pick(last).get(name)?.cpuMs;
      log(`${name.slice(0, 55).padEnd(56)}${cells.join('')}${(a && b ? fmt(b / a, 2) : '-').padStart(8)}`);
    }
  };
  // The whole export's statements and calls by step.
  const steps: [string, RegExp][] = [
    ['read: exports, layouts, marks', /^sql: SELECT table_name/],
    ['fingerprints', /^sql: fingerprint/],
    ['staging (temporary tables)', /^sql: (CREATE OR REPLACE TEMP|DROP TABLE)/],
    ['COPY per file', /^sql: COPY/],
    ['generation build: links, dirs, listing', /^fs: (linkSync|mkdirSync|readdirSync|existsSync|lstatSync|readlinkSync)/],
    ['claim: marker, fsync', /^fs: (fsyncSync|openSync|closeSync|writeFileSync|renameSync)/],
    ['publish: link swap', /^fs: symlinkSync/],
    ['retire old generations (rm)', /^fs: (rmSync|rmdirSync)/],
    ['bookkeeping transaction', /^sql: (INSERT|UPDATE|DELETE|COMMIT|BEGIN|ROLLBACK)/],
  ];
  const stepOf = (kind: string) => steps.find(([, re]) => re.test(kind))?.[0] ?? `other (${kind.slice(0, 30)})`;
  const bySteps = (r: typeof first): Figures => {
    const out: Figures = new Map();
    for (const [kind, f] of r.kinds) add(out, stepOf(kind), f);
    return out;
  };
  table('per step of the whole export', bySteps, 'calls');
  table('per table, exported one at a time (files written)', (r) => r.tables, 'files');
  table('per statement or call of the whole export', (r) => r.kinds, 'calls');
  log(`\n${'whole export: files written'.padEnd(56)}${days.map((d) => `${per(results.get(d)!.total.files)} ${per(results.get(d)!.total.cpuMs)} (${per(results.get(d)!.total.wallMs)})`.padStart(26)).join('')}${fmt(last.total.cpuMs / first.total.cpuMs, 2).padStart(8)}`);
}

try {
  if (DAYS) {
    await byHistory(DAYS);
  } else {
    const source = state ?? join(tmp.dir, 'state');
    if (!existsSync(source)) await idleNight(source);
    for (let run = 1; run <= runs; run++) {
      const { result: r, cpuMs, wallMs } = await timedExport(source, join(tmp.dir, `run${run}`));
      log(`\nrun ${run}: ${r.files} files, ${r.unchanged} unchanged, ${r.fullTables} full tables: ${fmt(cpuMs)} CPU ms, ${fmt(wallMs)} ms wall`);
      log(`${'what'.padEnd(72)}${'calls'.padStart(7)}${'CPU ms'.padStart(9)}${'wall ms'.padStart(9)}`);
      for (const [kind, f] of [...figures].sort((a, b) => b[1].cpuMs - a[1].cpuMs)) log(`${kind.slice(0, 71).padEnd(72)}${String(f.calls).padStart(7)}${fmt(f.cpuMs, 1).padStart(9)}${fmt(f.wallMs, 1).padStart(9)}`);
    }
  }
} finally {
  rmSync(tmp.dir, { recursive: true, force: true });
}
