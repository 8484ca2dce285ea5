/**
 * One night of bench:nights on a running service: grow the world by a day, trigger the Temporal
 * Schedule (the CLI's `schedule trigger`), wait for the run it started, then the nightly checks (a
 * CLI command, configurable); then, outside the measured window, read what the night left behind.
 *
 * Phases come from the scheduled run's own history: the time its export-like activities ran is the
 * export phase, check-like activities (a pipeline that checks by itself) and the checks command the
 * checks phase, the rest of the run (planning, partitions, the trigger) the sync phase. CPU of the
 * worker and the dev server is sampled every 100 ms from /proc and split at those instants; each
 * CLI command's CPU (/usr/bin/time) goes to its phase. CU: the simulator's count of charged CU per
 * phase, and the run's own records (`status --json`, sql/ops/runCosts.sql) beside it.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readStatusKb, resetPeakRss } from './benchWorld.ts';
import { fileBytes, type NightService } from './nightsService.ts';
import { attachLake } from '../activities/lake/lake.ts';
import { type LakeSettings } from '../activities/lake/settings.ts';
import { lakeFiles } from '../activities/lake/maintenance.ts';
import type { PipelineStatus } from '../workflows/pipeline.ts';

/** Epoch ms of a protobuf Timestamp (seconds may be a Long). */
const tsToMs = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number => (ts ? Number(String(ts.seconds ?? 0)) * 1000 + (ts.nanos ?? 0) / 1e6 : 0);

export type Phase = 'sync' | 'export' | 'checks';
export const PHASES: Phase[] = ['sync', 'export', 'checks'];

export interface PhaseFigures {
  wallS: number;
  /** Worker + dev server + CLI client. */
  cpuS: number;
  /** CU the simulator charged during the phase. */
  cu: number;
  requests: number;
}

export interface NightFigures {
  night: number;
  grew: boolean;
  wallS: number;
  cpu: { worker: number; server: number; client: number; total: number; /** Worker + server from the trigger to the end of the scheduled run (no checks command). */ runWorkerServer: number };
  phases: Record<Phase, PhaseFigures>;
  run: { workflowId: string; runId: string; snapshotAt: number; partitions: number; failed: string[]; rowsAdded: number; exportFiles?: number };
  /** The run's records (status --json: costs[].lastRun of this run). */
  records: { cu: number; requests: number; items: number };
  checks: { ok: boolean; seconds: number; summary: string };
  /** Live data and delete files, their bytes, data files written this night; snapshots and data-file rows the catalog holds (bounded by the retention). */
  lake: { files: number; bytes: number; written: number; snapshots?: number; catalogFiles?: number };
  warehouseBytes: number;
  storedRows: number;
  temporal: { bytes: number; runEvents: number; nightEvents: number; nightWorkflows: number; totalEvents?: number; totalWorkflows?: number };
  /** rssMb at the night's end; peakMb the worker's peak since it started (VmHWM: a spike of any night before counts); nightPeakMb this night's own peak. */
  worker: { rssMb: number; peakMb: number; nightPeakMb: number; objectCacheMb?: number };
  queries: { dayMs: number; historyMs: number; day: string };
}

export interface NightOptions {
  scheduleId: string;
  /** A scheduled run still going after this long is a stalled night (NightStalled). */
  timeoutMs?: number;
  /** CLI arguments of the nightly checks (e.g. ['verify']); null: none. */
  checks: string[] | null;
  grow: boolean;
  /** Also count every workflow execution the server holds (slower: lists them all). */
  countAll?: boolean;
  analyst?: Analyst;
}

/** A scheduled run that did not finish in time; `reasons` are the last failures of the activities it waits on. */
export class NightStalled extends Error {
  constructor(readonly night: number, readonly seconds: number, readonly reasons: string[]) {
    super(`night ${night}: the scheduled run did not finish within ${seconds} s${reasons.length ? `: ${reasons.join('; ')}` : ''}`);
  }
}

/** What the running workflows wait on: each pending activity's attempt and last failure (first line). */
async function pendingFailures(svc: NightService): Promise<string[]> {
  const out: string[] = [];
  for await (const w of svc.client.workflow.list({ query: `ExecutionStatus = 'Running'` })) {
    const d = await svc.client.workflow.getHandle(w.workflowId, w.runId).describe();
    for (const a of d.raw.pendingActivities ?? []) {
      const message = a.lastFailure?.message?.split('\n')[0];
      if (message) out.push(`${w.workflowId} ${a.activityType?.name ?? ''} attempt ${a.attempt}: ${message}`);
    }
  }
  return out;
}

/** A CPU timeline of the worker and the dev server, one sample every 100 ms. */
class CpuTimeline {
  private readonly samples: { t: number; cpu: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly svc: NightService) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }
  private sample(): void {
    const c = this.svc.cpu();
    this.samples.push({ t: Date.now(), cpu: c.worker + c.server });
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
  /** Worker + server CPU seconds at instant t (linear between samples). */
  at(t: number): number {
    const s = this.samples;
    if (t <= s[0].t) return s[0].cpu;
    for (let i = 1; i < s.length; i++) {
      if (s[i].t >= t) {
        const a = s[i - 1];
        const b = s[i];
        return b.t === a.t ? b.cpu : a.cpu + ((b.cpu - a.cpu) * (t - a.t)) / (b.t - a.t);
      }
    }
    return s.at(-1)!.cpu;
  }
  between(a: number, b: number): number {
    return Math.max(0, this.at(b) - this.at(a));
  }
}

/** Which phase an activity of the scheduled run belongs to, by its type's name. */
export function phaseOfActivity(name: string): Phase {
  if (/export|compact|lake/i.test(name)) return 'export';
  if (/verify|check/i.test(name)) return 'checks';
  return 'sync';
}

/** Intervals [start, end] (ms) of the run's export-like and check-like activities, and the run's start and end. */
async function runIntervals(svc: NightService, workflowId: string, runId: string): Promise<{ start: number; end: number; events: number; byPhase: Record<'export' | 'checks', [number, number][]> }> {
  const history = await svc.client.workflow.getHandle(workflowId, runId).fetchHistory();
  const events = history.events ?? [];
  const scheduled = new Map<string, { name: string; at: number }>();
  const byPhase: Record<'export' | 'checks', [number, number][]> = { export: [], checks: [] };
  for (const e of events) {
    const at = tsToMs(e.eventTime);
    if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), { name: e.activityTaskScheduledEventAttributes.activityType?.name ?? '', at });
    const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes ?? e.activityTaskCanceledEventAttributes;
    if (closed) {
      const s = scheduled.get(String(closed.scheduledEventId));
      const phase = s ? phaseOfActivity(s.name) : 'sync';
      if (s && phase !== 'sync') byPhase[phase].push([s.at, at]);
    }
  }
  return { start: tsToMs(events[0]?.eventTime), end: tsToMs(events.at(-1)?.eventTime), events: events.length, byPhase };
}

/** Total length of a union of intervals clipped to [lo, hi]. */
function covered(intervals: [number, number][], lo: number, hi: number): [number, number][] {
  const sorted = intervals.map(([a, b]) => [Math.max(a, lo), Math.min(b, hi)] as [number, number]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const iv of sorted) {
    const last = out.at(-1);
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else out.push([...iv]);
  }
  return out;
}

/** Waits for the schedule to start a run after `previous` (the workflow id of its last action before the trigger). */
async function newScheduledRun(svc: NightService, scheduleId: string, previous: string | undefined): Promise<{ workflowId: string; runId: string }> {
  const handle = svc.client.schedule.getHandle(scheduleId);
  for (let i = 0; i < 600; i++) {
    const d = await handle.describe();
    const last = d.info.recentActions.at(-1)?.action;
    if (last && last.type === 'startWorkflow' && last.workflow.workflowId !== previous) return { workflowId: last.workflow.workflowId, runId: last.workflow.firstExecutionRunId };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`schedule ${scheduleId}: no run started within 60 s of the trigger`);
}

export async function lastScheduledWorkflowId(svc: NightService, scheduleId: string): Promise<string | undefined> {
  const d = await svc.client.schedule.getHandle(scheduleId).describe();
  const last = d.info.recentActions.at(-1)?.action;
  return last?.type === 'startWorkflow' ? last.workflow.workflowId : undefined;
}

/**
 * An analyst's session: its own DuckDB instance with the lake attached read-only (as `glacier-etl sql`
 * and docs/schema.md do), kept open across the nights: each query reads the lake's latest snapshot.
 */
export class Analyst {
  private attached = false;
  private constructor(private readonly conn: DuckDBConnection) {}
  static async open(): Promise<Analyst> {
    const db = await DuckDBInstance.create(':memory:');
    return new Analyst(await db.connect());
  }
  private async rows(lake: LakeSettings, sql: string): Promise<Record<string, unknown>[]> {
    if (!this.attached) {
      await attachLake(this.conn, lake, { readOnly: true });
      this.attached = true;
    }
    return (await this.conn.runAndReadAll(sql)).getRowObjectsJS();
  }
  private async time(lake: LakeSettings, sql: string): Promise<number> {
    const t0 = performance.now();
    await this.rows(lake, sql);
    return performance.now() - t0;
  }
  /**
   * One day's transactions per chain (the lake's newest full day: its month plus the timestamp range,
   * so DuckLake opens that month's files only), then every day of the whole history.
   */
  async queries(lake: LakeSettings): Promise<{ dayMs: number; historyMs: number; day: string }> {
    const dayOf = `strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m-%d')`;
    const dates = await this.rows(lake, `SELECT DISTINCT ${dayOf} AS d FROM lake.evm_transactions WHERE month >= (SELECT max(month) FROM lake.evm_transactions) ORDER BY d DESC LIMIT 2`);
    const day = String(dates[1]?.d ?? dates[0]?.d ?? '1970-01-01');
    const lo = Date.parse(`${day}T00:00:00Z`) / 1000;
    const pick = `count(*) AS tx_count, count(DISTINCT from_address) AS senders, sum(value_num) AS value_wei, sum(CAST(gas_used AS HUGEINT) * gas_price_num) AS fees_wei`;
    const dayMs = await this.time(lake, `SELECT chain_id, ${pick} FROM lake.evm_transactions WHERE month = '${day.slice(0, 7)}' AND block_timestamp >= ${lo} AND block_timestamp < ${lo + 86_400} GROUP BY ALL`);
    const historyMs = await this.time(lake, `SELECT chain_id, ${dayOf} AS date, ${pick} FROM lake.evm_transactions GROUP BY ALL ORDER BY ALL`);
    return { dayMs, historyMs, day };
  }
  /** Rows stored in the lake (every table's count at its latest snapshot). */
  async lakeRows(lake: LakeSettings): Promise<number> {
    const tables = await this.rows(lake, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake'");
    if (tables.length === 0) return 0;
    const [row] = await this.rows(lake, `SELECT ${tables.map((t) => `(SELECT count(*) FROM lake."${String(t.table_name)}")`).join(' + ')} AS n`);
    return Number(row.n);
  }
  /** The lake's live files (data and delete files of the latest snapshot), their bytes, the data files snapshots since `since` (ms) added, and the catalog's snapshots and data-file rows. */
  async files(lake: LakeSettings, since = Infinity): Promise<NightFigures['lake']> {
    await this.rows(lake, 'SELECT 1');
    const { files, bytes } = await lakeFiles(this.conn, 'lake');
    const [w] = Number.isFinite(since)
      ? await this.rows(lake, `SELECT count(*) AS n FROM __ducklake_metadata_lake.ducklake_data_file AS f JOIN __ducklake_metadata_lake.ducklake_snapshot AS s ON s.snapshot_id = f.begin_snapshot WHERE CAST(s.snapshot_time AS TIMESTAMPTZ) >= to_timestamp(${since / 1000})`)
      : [{ n: 0 }];
    const [c] = await this.rows(lake, 'SELECT (SELECT count(*) FROM __ducklake_metadata_lake.ducklake_snapshot) AS snapshots, (SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file) AS catalog_files');
    return { files, bytes, written: Number(w.n), snapshots: Number(c.snapshots), catalogFiles: Number(c.catalog_files) };
  }
}

/** What `status --json` says this run cost (its records in _glacier_sync_runs). */
async function runRecords(svc: NightService, runKey: string): Promise<NightFigures['records']> {
  const status = await svc.cli(['status', '--json']);
  if (status.code !== 0) return { cu: NaN, requests: NaN, items: NaN };
  const { costs } = JSON.parse(status.stdout) as { costs: { lastRun?: { runId: string; cu: number; requests: number; items: number } }[] };
  const mine = costs.flatMap((c) => (c.lastRun?.runId === runKey ? [c.lastRun] : []));
  return { cu: mine.reduce((n, r) => n + r.cu, 0), requests: mine.reduce((n, r) => n + r.requests, 0), items: mine.reduce((n, r) => n + r.items, 0) };
}

/** Workflows started since `since` and their history events; or all of them. */
async function workflowEvents(svc: NightService, since?: number): Promise<{ workflows: number; events: number }> {
  let workflows = 0;
  let events = 0;
  const query = since === undefined ? undefined : `StartTime >= "${new Date(since).toISOString()}"`;
  for await (const w of svc.client.workflow.list(query ? { query } : {})) {
    workflows++;
    events += w.historyLength;
  }
  return { workflows, events };
}

/** The worker's peak RSS since it started, kB, while each night resets VmHWM to read its own peak. */
const workerPeakKb = new Map<number, number>();

export async function runNight(svc: NightService, night: number, o: NightOptions): Promise<NightFigures> {
  if (o.grow) await svc.advanceDays(1);
  const pid = svc.workerPid;
  workerPeakKb.set(pid, Math.max(workerPeakKb.get(pid) ?? 0, readStatusKb(pid, 'VmHWM')));
  const ownPeak = resetPeakRss(pid);
  const previous = await lastScheduledWorkflowId(svc, o.scheduleId);
  const sim0 = await svc.simStats();
  const cpu0 = svc.cpu();
  const t0 = Date.now();
  const timeline = new CpuTimeline(svc);
  let client = 0;
  let phases: Record<Phase, PhaseFigures>;
  let result: PipelineStatus;
  let run: { workflowId: string; runId: string };
  let checks: NightFigures['checks'] = { ok: true, seconds: 0, summary: 'none' };
  let tRunEnd: number;
  let tEnd: number;
  let clientSync = 0;
  let simRun: { requests: number; cu: number };
  let iv: Awaited<ReturnType<typeof runIntervals>>;
  let runCpu: number;
  try {
    const trigger = await svc.mustCli(['schedule', 'trigger', o.scheduleId]);
    clientSync = trigger.cpuSeconds;
    run = await newScheduledRun(svc, o.scheduleId, previous);
    const timeoutMs = o.timeoutMs ?? 600_000;
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), timeoutMs)));
    const done = svc.client.workflow.getHandle(run.workflowId, run.runId).result() as Promise<PipelineStatus>;
    // A stalled run's wait outlives the night and fails when the service stops: nobody awaits it then.
    done.catch(() => undefined);
    const finished = await Promise.race([done, stalled]);
    clearTimeout(timer);
    if (finished === 'stalled') svc.abandonedWait = true;
    if (finished === 'stalled') throw new NightStalled(night, timeoutMs / 1000, await pendingFailures(svc));
    result = finished;
    tRunEnd = Date.now();
    simRun = await svc.simStats();
    let clientChecks = 0;
    if (o.checks) {
      const c = await svc.cli(o.checks);
      clientChecks = c.cpuSeconds;
      const lines = c.stdout.trim().split('\n');
      checks = { ok: c.code === 0, seconds: c.seconds, summary: c.code === 0 ? (lines.at(-1) ?? '') : [...lines.filter((l) => l.startsWith('FAIL')), c.stderr.trim()].join('; ').slice(0, 500) };
    }
    tEnd = Date.now();
    timeline.stop();
    client = clientSync + clientChecks;
    const sim1 = await svc.simStats();
    iv = await runIntervals(svc, run.workflowId, run.runId);
    const exportIv = covered(iv.byPhase.export, t0, tRunEnd);
    const checksIv = covered(iv.byPhase.checks, t0, tRunEnd);
    const span = (ivs: [number, number][]) => ivs.reduce((n, [a, b]) => n + (b - a), 0) / 1000;
    const cpuIn = (ivs: [number, number][]) => ivs.reduce((n, [a, b]) => n + timeline.between(a, b), 0);
    runCpu = timeline.between(t0, tRunEnd);
    const runWall = (tRunEnd - t0) / 1000;
    phases = {
      export: { wallS: span(exportIv), cpuS: cpuIn(exportIv), cu: 0, requests: 0 },
      checks: { wallS: span(checksIv) + (tEnd - tRunEnd) / 1000, cpuS: cpuIn(checksIv) + timeline.between(tRunEnd, tEnd) + clientChecks, cu: sim1.cu - simRun.cu, requests: sim1.requests - simRun.requests },
      sync: { wallS: 0, cpuS: 0, cu: simRun.cu - sim0.cu, requests: simRun.requests - sim0.requests },
    };
    phases.sync.wallS = runWall - span(exportIv) - span(checksIv);
    phases.sync.cpuS = runCpu - cpuIn(exportIv) - cpuIn(checksIv) + clientSync;
  } catch (error) {
    timeline.stop();
    throw error;
  }
  const cpu1 = svc.cpu();
  const worker = cpu1.worker - cpu0.worker;
  const server = cpu1.server - cpu0.server;

  // Outside the measured window: what the night left behind.
  const records = await runRecords(svc, `${run.workflowId}/${run.runId}`);
  const nightWf = await workflowEvents(svc, t0 - 1000);
  const all = o.countAll ? await workflowEvents(svc) : undefined;
  const analyst = o.analyst ?? (await Analyst.open());
  const lake = await analyst.files(svc.lake, t0);
  const queries = await analyst.queries(svc.lake);
  const storedRows = await analyst.lakeRows(svc.lake);
  return {
    night,
    grew: o.grow,
    wallS: (tEnd - t0) / 1000,
    cpu: { worker, server, client, total: worker + server + client, runWorkerServer: runCpu },
    phases,
    run: {
      ...run,
      snapshotAt: result.snapshotAt,
      partitions: result.partitions.length,
      failed: result.partitions.filter((p) => p.state !== 'done').map((p) => `${p.partitionId}: ${p.state} ${p.error ?? ''}`),
      rowsAdded: result.partitions.reduce((n, p) => n + p.rows, 0),
      exportFiles: result.exported?.files,
    },
    records,
    checks,
    lake,
    warehouseBytes: fileBytes(svc.warehouseFile, ['.wal']),
    storedRows,
    temporal: { bytes: fileBytes(svc.server.dbFile, ['-wal', '-shm']), runEvents: iv.events, nightEvents: nightWf.events, nightWorkflows: nightWf.workflows, totalEvents: all?.events, totalWorkflows: all?.workflows },
    worker: { ...nightPeak(pid, ownPeak), objectCacheMb: await objectCacheMb() },
    queries,
  };
}

/**
 * DuckDB's object cache in the worker at the night's end (duckdb_memory()'s OBJECT_CACHE, where
 * DuckLake keeps each attach's catalog and stats entries), from its /metrics when
 * NIGHTS_WORKER_METRICS_PORT serves them (bench/README.md, "Nights: DuckDB's object cache").
 */
async function objectCacheMb(): Promise<number | undefined> {
  const port = process.env.NIGHTS_WORKER_METRICS_PORT;
  if (!port) return undefined;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text().catch(() => '');
  const m = /^glacier_duckdb_memory_bytes\{tag="OBJECT_CACHE"\} (\S+)$/m.exec(text);
  return m ? Number(m[1]) / 1048576 : 0;
}

function nightPeak(pid: number, ownPeak: boolean): Omit<NightFigures['worker'], 'objectCacheMb'> {
  const nightKb = readStatusKb(pid, 'VmHWM');
  workerPeakKb.set(pid, Math.max(workerPeakKb.get(pid) ?? 0, nightKb));
  return { rssMb: readStatusKb(pid, 'VmRSS') / 1024, peakMb: workerPeakKb.get(pid)! / 1024, nightPeakMb: ownPeak ? nightKb / 1024 : NaN };
}
