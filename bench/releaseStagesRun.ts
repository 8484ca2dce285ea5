/**
 * One build's stage profile (bench/releaseStages.ts runs it in a child process per build and round):
 * the sync core of the source tree at `--root` (the working tree, or a previous release checked out
 * by test/upgrade/previousRelease.ts) backfills the peer world's four lists one partition at a time
 * (syncBatch, 20 pages per batch, the default warehouse settings or `--memory-limit`), one warehouse
 * file per list, closing included; a failed batch is retried, as its activity would be. It uses only what both releases have (createSyncCore, createDataApiClient,
 * openWarehouse, benchConfig) and measures from outside the code:
 *
 * - JavaScript on the main thread: a V8 CPU profile (node:inspector), each sample given to the stage
 *   of the nearest frame on its stack that belongs to one (fetch, parse, validate, unmapped fields and
 *   drift, columns, batch build, append, ...), scaled to the main thread's CPU time (/proc).
 * - SQL: every DuckDB statement (DuckDBConnection.run and prepared statements, patched), timed by the
 *   process's CPU over its await (DuckDB's threads; the main thread waits) and classed by its text:
 *   merge, unchanged rows (the identical-row prune), follow-up SQL, lake marks, checkpoint row, run
 *   records, CHECKPOINT. A multi-statement call (a table's merge and follow-ups, sent as one text) is
 *   run statement by statement so each is classed; calls per commit are counted as the code sends them.
 *
 * Prints one JSON object on stdout; `--detail` adds the costliest statements and JavaScript functions
 * per list (CPU ms per page).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' }, sim: { type: 'string' }, dir: { type: 'string' }, interval: { type: 'string', default: '250' }, detail: { type: 'boolean', default: false }, 'memory-limit': { type: 'string' } } });
const root = values.root!;
const sim = JSON.parse(readFileSync(values.sim!, 'utf8')) as { baseUrl: string; metricsUrl: string; world: unknown };
const imp = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;

// ---- SQL: DuckDB's statements, timed and classed -----------------------------------------------

const SQL_STAGES = ['begin/commit', 'stage table', 'merge', 'unchanged rows', 'follow-up SQL', 'marks', 'checkpoint row', 'records', 'CHECKPOINT', 'reads', 'other SQL'] as const;
type SqlStage = (typeof SQL_STAGES)[number];

/** The stage of one statement, from its text (generated statements quote identifiers; sql/ops files do not). */
function classify(sql: string): SqlStage {
  const s = sql.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
  if (/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(s)) return 'begin/commit';
  if (/^CHECKPOINT\b|^SET memory_limit/i.test(s)) return 'CHECKPOINT';
  if (/_glacier_changed_partitions/.test(s)) return 'marks';
  if (/_glacier_checkpoints/.test(s)) return 'checkpoint row';
  if (/_glacier_(sync_runs|snapshot_walks|stream_fields|drift|walk_keys|run_sizes)/.test(s)) return /^(SELECT|WITH)\b/i.test(s) ? 'reads' : 'records';
  if (/^CREATE OR REPLACE TEMP TABLE "_stage_[a-z0-9_]+" \(/.test(s) && !/_identical"/.test(s)) return 'stage table';
  // The identical-row prune: the keys of staged rows stored as they are, dropped from the stage or touched in place.
  if (/_identical"/.test(s) || /^DELETE FROM "_stage_[a-z0-9_]+" AS s USING/.test(s) || /^UPDATE "[a-z0-9_]+" AS t SET "last_seen_at"/.test(s)) return 'unchanged rows';
  if (/^(DELETE FROM|INSERT (OR (REPLACE|IGNORE) )?INTO|UPDATE) "[a-z0-9_]+"/.test(s)) return 'merge';
  if (/^(SELECT|WITH|PRAGMA|DESCRIBE|SHOW)\b/i.test(s)) return 'reads';
  if (/^(INSERT|UPDATE|DELETE|CREATE OR REPLACE TEMP TABLE _)/i.test(s)) return 'follow-up SQL';
  return 'other SQL';
}

interface SqlFigure {
  calls: number;
  cpuMs: number;
}
const sqlFigures = new Map<string, SqlFigure>();
const others = new Map<string, number>();
/** With --detail: CPU per statement text (its first 150 characters). */
const detail = values.detail === true;
const byStatement = new Map<string, SqlFigure>();
let commits = 0;
let calls = 0;
let statements = 0;
let inCommit = false;
let depth = 0;

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function timed<T>(sql: string, run: () => Promise<T>): Promise<T> {
  if (depth > 0) return run();
  depth++;
  const stage = classify(sql);
  const t0 = cpuNow();
  try {
    return await run();
  } finally {
    depth--;
    const ms = cpuNow() - t0;
    const add = (map: Map<string, SqlFigure>, key: string) => {
      const f = map.get(key) ?? { calls: 0, cpuMs: 0 };
      f.calls += 1;
      f.cpuMs += ms;
      map.set(key, f);
    };
    add(sqlFigures, stage);
    if (stage === 'other SQL') others.set(sql.slice(0, 80), (others.get(sql.slice(0, 80)) ?? 0) + 1);
    if (detail) add(byStatement, `${stage}: ${sql.replace(/\s+/g, ' ').trim().slice(0, 150)}`);
    if (/^\s*BEGIN/i.test(sql)) {
      inCommit = true;
      commits++;
    }
    if (inCommit) statements++;
    if (/^\s*(COMMIT|ROLLBACK)/i.test(sql)) inCommit = false;
  }
}

type Connection = { run(sql: string, values?: unknown, types?: unknown): Promise<unknown>; prepare(sql: string): Promise<object> };
type Prepared = { run(): Promise<unknown> };
const duckdb = createRequire(join(root, 'package.json'))('@duckdb/node-api') as {
  DuckDBConnection: { prototype: Connection };
  DuckDBPreparedStatement: { prototype: Prepared };
};
const preparedSql = new WeakMap<object, string>();
const { run: originalRun, prepare: originalPrepare } = duckdb.DuckDBConnection.prototype;
const originalExecute = duckdb.DuckDBPreparedStatement.prototype.run;
duckdb.DuckDBConnection.prototype.run = async function (this: Connection, sql: string, params?: unknown, types?: unknown) {
  if (depth > 0) return originalRun.call(this, sql, params, types);
  if (inCommit || /^\s*BEGIN/i.test(sql)) calls++;
  const pieces = params === undefined ? sql.split(/;\s*\n/).filter((p) => p.replace(/--[^\n]*/g, '').trim() !== '') : [sql];
  if (pieces.length <= 1) return timed(sql, () => originalRun.call(this, sql, params, types));
  let last: unknown;
  for (const piece of pieces) last = await timed(piece, () => originalRun.call(this, piece));
  return last;
};
duckdb.DuckDBConnection.prototype.prepare = async function (this: Connection, sql: string) {
  const prepared = await originalPrepare.call(this, sql);
  preparedSql.set(prepared, sql);
  return prepared;
};
duckdb.DuckDBPreparedStatement.prototype.run = async function (this: Prepared) {
  if (depth > 0) return originalExecute.call(this);
  if (inCommit) calls++;
  return timed(preparedSql.get(this) ?? 'SELECT /* prepared elsewhere */', () => originalExecute.call(this));
};

// ---- JavaScript: the main thread's CPU profile, by stage ----------------------------------------

const JS_STAGES = ['fetch', 'parse', 'validate', 'unmapped fields, drift', 'columns', 'batch build', 'append', 'marks (JS)', 'records (JS)', 'commit (other JS)', 'closing checkpoint (main thread)', 'sync core (other JS)', 'garbage collection', 'other JS'] as const;
type JsStage = (typeof JS_STAGES)[number];

/** The stage of one frame, or undefined (look at its caller). */
function stageOf(url: string, fn: string): JsStage | undefined {
  if (url === '' && fn === '(garbage collector)') return 'garbage collection';
  if (url.startsWith('node:internal/deps/undici')) return 'fetch';
  if (url.includes('/activities/api/losslessJson')) return 'parse';
  if (url.includes('/activities/api/validateResponse') || url.includes('/activities/api/schemas/') || url.includes('/node_modules/zod/')) return 'validate';
  if (url.includes('/activities/api/')) return 'fetch';
  if (url.includes('/activities/streams/unmapped') || url.includes('/activities/warehouse/driftRecord')) return 'unmapped fields, drift';
  if (url.includes('/activities/sync/syncCore') && /notePresence|declared/.test(fn)) return 'unmapped fields, drift';
  if (url.includes('/activities/streams/')) return 'columns';
  if (url.includes('/activities/warehouse/columnBatch')) return 'batch build';
  if (url.includes('/activities/warehouse/lakeKeys')) return 'marks (JS)';
  if (/\/activities\/warehouse\/(commitRecords|versions|runSizes|snapshotVersionsStep)/.test(url)) return 'records (JS)';
  if (url.includes('/activities/warehouse/warehouse') && /appendColumns/.test(fn)) return 'append';
  // A warehouse that leaves its last checkpoint to DuckDB's close (0.1.0) writes it on the main thread.
  if (url.includes('/node_modules/@duckdb/') && fn === 'closeSync') return 'closing checkpoint (main thread)';
  // The appender's vectors, data chunks and flush are the append; the rest of the binding (statements, results) the commit's JS.
  if (url.includes('/node_modules/@duckdb/')) return /\/(DuckDBAppender|DuckDBDataChunk|DuckDB\w*Vector|DuckDBValidity|dataAccessors)\.js$/.test(url) ? 'append' : 'commit (other JS)';
  if (url.includes('/activities/warehouse/')) return 'commit (other JS)';
  if (url.includes('/activities/')) return 'sync core (other JS)';
  return undefined;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** The main thread's CPU by stage; with `functions`, also by leaf function (and the frame that gave the stage). */
function jsStages(profile: { nodes: ProfileNode[]; samples?: number[] }, mainThreadMs: number, functions?: Map<string, number>): Record<JsStage, number> {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').at(-1)}`;
  const stageOfNode = new Map<number, { stage: JsStage | 'idle'; by: string }>();
  const resolve = (id: number): { stage: JsStage | 'idle'; by: string } => {
    const known = stageOfNode.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const own: JsStage | 'idle' | undefined = n.callFrame.functionName === '(idle)' ? 'idle' : stageOf(n.callFrame.url, n.callFrame.functionName);
    const r = own ? { stage: own, by: label(n) } : parent.has(id) ? resolve(parent.get(id)!) : { stage: 'other JS' as const, by: label(n) };
    stageOfNode.set(id, r);
    return r;
  };
  const counts = new Map<JsStage, number>();
  const leaves = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples ?? []) {
    const { stage, by } = resolve(id);
    if (stage === 'idle') continue;
    busy++;
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
    if (functions) {
      const key = `${stage}: ${label(byId.get(id)!)} < ${by}`;
      leaves.set(key, (leaves.get(key) ?? 0) + 1);
    }
  }
  for (const [k, n] of leaves) functions!.set(k, (functions!.get(k) ?? 0) + (n / busy) * mainThreadMs);
  return Object.fromEntries(JS_STAGES.map((s) => [s, busy ? ((counts.get(s) ?? 0) / busy) * mainThreadMs : 0])) as Record<JsStage, number>;
}

/** CPU ms of this process's main thread so far (/proc; 10 ms ticks). */
function mainThreadMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// ---- the run -------------------------------------------------------------------------------------

type Partition = { id: string; chain?: string };
interface Core {
  planPartitions(input: { streams: string[] }): Promise<Partition[]>;
  syncBatch(input: { partition: Partition; maxPages: number; mode: 'backfill'; runId: string; snapshotAt: number }): Promise<{ pages: number; rows: number; done: boolean }>;
}
interface Warehouse {
  close(): Promise<void>;
  query(sql: string): Promise<Record<string, unknown>[]>;
}
const { createSyncCore } = await imp<{ createSyncCore(deps: object): Core }>('activities/sync/index.ts');
const { createDataApiClient } = await imp<{ createDataApiClient(o: object): object }>('activities/api/index.ts');
const { openWarehouse } = await imp<{ openWarehouse(path: string, o: object): Promise<Warehouse> }>('activities/warehouse/index.ts');
const { benchConfig } = await imp<{ benchConfig(sim: object, dir: string, o: object): { api: { pageSize?: number }; warehouse: { memoryLimit?: string; checkpointThreshold?: string } } }>('bench/benchWorld.ts');
const { createLogger } = await imp<{ createLogger(o: object): object }>('worker/logger.ts');

const LISTS = [
  { stream: 'evm.blocks', table: 'evm_blocks' },
  { stream: 'evm.transactions', table: 'evm_transactions' },
  { stream: 'pn.transactions', table: 'pn_transactions', chain: 'p-chain' },
  { stream: 'pn.validators', table: 'pn_validators' },
];
const logger = createLogger({ level: 'silent' });
const config = benchConfig(sim, values.dir!, { streams: LISTS.map((l) => l.stream), partitionConcurrency: 1 });
config.api.pageSize = 100;
const rateLimitOverride = { perWindow: 1e12, perDay: 1e15, metrics: { perWindow: 1e12, perDay: 1e15 } };
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: Number(values.interval) });

const out = [];
for (const list of LISTS) {
  let outOfMemory = 0;
  let failedBatches = 0;
  const warehouse = await openWarehouse(join(values.dir!, `${list.table}.duckdb`), {
    memoryLimit: values['memory-limit'] ?? config.warehouse.memoryLimit,
    checkpointThreshold: config.warehouse.checkpointThreshold,
    onMemoryRelief: () => outOfMemory++,
  });
  const client = createDataApiClient({ baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, concurrency: 1, logger, rateLimitOverride });
  const core = createSyncCore({ client, warehouse, config, logger });
  const partitions = (await core.planPartitions({ streams: [list.stream] })).filter((p) => !list.chain || p.chain === list.chain);
  sqlFigures.clear();
  others.clear();
  byStatement.clear();
  commits = calls = statements = 0;
  const cpu0 = cpuNow();
  const main0 = mainThreadMs();
  await session.post('Profiler.start');
  let pages = 0;
  let rows = 0;
  for (const partition of partitions) {
    for (;;) {
      // A failed batch is retried from its checkpoint, as its activity would be (at most 5 times in a row).
      let r;
      for (let attempt = 1; ; attempt++) {
        try {
          r = await core.syncBatch({ partition, maxPages: 20, mode: 'backfill', runId: 'bench', snapshotAt: 1_800_000_000 });
          break;
        } catch (error) {
          failedBatches++;
          if (attempt >= 5) throw error;
        }
      }
      pages += r.pages;
      rows += r.rows;
      if (r.done) break;
    }
  }
  const [{ n: items }] = await warehouse.query(`SELECT count(*)::INTEGER AS n FROM ${list.table}`);
  await warehouse.close();
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples?: number[] } };
  const mainMs = mainThreadMs() - main0;
  const processMs = cpuNow() - cpu0;
  const functions = detail ? new Map<string, number>() : undefined;
  const js = jsStages(profile, mainMs, functions);
  const top = (m: Map<string, number>, n: number) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, Math.round((v / pages) * 1000) / 1000]));
  out.push({
    list: list.stream,
    pages,
    rows,
    items: Number(items),
    commits,
    callsPerCommit: commits ? calls / commits : 0,
    statementsPerCommit: commits ? statements / commits : 0,
    processMs,
    mainThreadMs: mainMs,
    outOfMemory,
    failedBatches,
    js,
    sql: Object.fromEntries(SQL_STAGES.map((s) => [s, sqlFigures.get(s) ?? { calls: 0, cpuMs: 0 }])),
    otherSql: Object.fromEntries(others),
    ...(detail ? { detail: { sqlMsPerPage: top(new Map([...byStatement].map(([k, f]) => [k, f.cpuMs])), 25), jsMsPerPage: top(functions!, 40) } } : {}),
  });
}
session.disconnect();
console.log(JSON.stringify(out));
