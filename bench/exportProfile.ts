/**
 * Where an idle night's export spends its time: the small world (bench/nightsNoop.ts' world: 84
 * partitions, default clocks) backfilled and exported, one sync and export, then a sync with no
 * growth (`sync --no-export`), the worker stopped, and the export run here `runs` times on copies of
 * that state (warehouse and lake), with every DuckDB statement and file-system call it makes timed:
 * CPU of this process (DuckDB's threads included) and wall, summed per kind of statement or call.
 *
 *   npm run -s build && npx tsx bench/exportProfile.ts [runs=3]
 *   EXPORT_PROFILE_STATE=<dir>: keep the idle night's state there, and use it if it is there (no world built).
 */
import fs, { cpSync, existsSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { allTables } from '../activities/streams/catalog.ts';
import { exportParquet } from '../activities/warehouse/export.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import { parquetDir, warehousePath } from '../worker/paths.ts';
import { fmt, tempDir } from './benchWorld.ts';
import { NightService } from './nightsService.ts';

const runs = Number(process.argv[2] ?? 3);
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
for (const name of ['fsyncSync', 'renameSync', 'openSync', 'closeSync', 'mkdirSync', 'existsSync', 'rmSync', 'readdirSync', 'rmdirSync']) {
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
try {
  const source = state ?? join(tmp.dir, 'state');
  if (!existsSync(source)) await idleNight(source);
  for (let run = 1; run <= runs; run++) {
    const dir = join(tmp.dir, `run${run}`);
    cpSync(source, dir, { recursive: true });
    const warehouse = await openWarehouse(warehousePath(dir));
    try {
      figures.clear();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await exportParquet(warehouse, allTables(), parquetDir(dir));
      const c = process.cpuUsage(c0);
      log(`\nrun ${run}: ${r.files} files, ${r.unchanged} unchanged, ${r.fullTables} full tables: ${fmt((c.user + c.system) / 1000)} CPU ms, ${fmt(performance.now() - t0)} ms wall`);
      log(`${'what'.padEnd(72)}${'calls'.padStart(7)}${'CPU ms'.padStart(9)}${'wall ms'.padStart(9)}`);
      for (const [kind, f] of [...figures].sort((a, b) => b[1].cpuMs - a[1].cpuMs)) log(`${kind.slice(0, 71).padEnd(72)}${String(f.calls).padStart(7)}${fmt(f.cpuMs, 1).padStart(9)}${fmt(f.wallMs, 1).padStart(9)}`);
    } finally {
      await warehouse.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(tmp.dir, { recursive: true, force: true });
}
