/**
 * `npm run bench:nights`: a year of nights (issue 26). glacier-etl as it runs in production: a
 * Temporal dev server and a `glacier-etl worker` up for the whole run (started once), one backfill,
 * then N nights. Before each night the simulator grows by one day of activity on every chain
 * (size.stepsPerDay: blocks, transactions, UTXOs, validator changes, rewards); the night is started
 * by the Temporal Schedule (`glacier-etl schedule trigger`), and is that scheduled run (sync +
 * export) plus the nightly checks (a CLI command, `verify` by default).
 *
 *   npm run bench:nights                              100 nights on a 30-day world, the 1x/10x/100x
 *                                                     comparison and the idle night
 *   npm run bench:nights -- --nights 5 --days 3 --scaling-days 1 --scaling 1,10 --skip-idle
 *   --scaling-nights 3: measured nights per scaling world after its warm-up (each phase: their median);
 *   the worlds' measured nights take turns, so a passing load falls on all of them
 *   npm run bench:nights -- --memory-limit 128MB      every world's warehouse.memoryLimit
 *   npm run bench:nights -- --sweep-concurrency 8     every world's sweepConcurrency
 *   NIGHTS_WORKER_METRICS_PORT=9477 npm run bench:nights   the worker serves /metrics there; each
 *                                                     night's line adds DuckDB's object cache
 *   npm run bench:nights -- --no-export               the nights without the lake export (the backfill's
 *                                                     lake stays; its figures are not judged)
 *   BENCH_NIGHTS_CHECKS="verify --nightly" npm run bench:nights    the nightly checks' CLI arguments
 *                                                     (also --checks; "none": no checks command)
 *
 * A scheduled run still going after --night-timeout seconds (600) is a stalled night: the run of
 * nights ends there, named with what its activities last failed on.
 * `touch <data-dir>/STOP` ends the run of nights after the night in progress (the rest still runs).
 *
 * Prints a line per night, a table at nights 1, 10, 100 and 365 (those reached, and the last), the
 * scaling comparison per phase, the idle night, and every "Done when" figure of the issue beside
 * its bound (PASS/MISS: printed, never asserted). Writes nights.json, nights.md and nights.html
 * (cost per night against warehouse size) under --data-dir (default data/bench-nights).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig, type PipelineConfig } from '../worker/config.ts';
import { SWEEP_CONCURRENCY } from '../common/config.ts';
import { createLogger } from '../worker/logger.ts';
import { DEFAULT_MEMORY_LIMIT, openWarehouse } from '../activities/warehouse/warehouse.ts';
import { createSyncCore } from '../activities/sync/index.ts';
import { compareWithTruth, remoteTruthSource, truthClient } from '../test/helpers/truthTables.ts';
import { fmt } from './benchWorld.ts';
import { NightService, ROOT, nightsSize } from './nightsService.ts';
import { Analyst, NightStalled, PHASES, runNight, type NightFigures, type Phase } from './nightRun.ts';
import { median, medianNight, nightsTable, scalingTable, writeNightsReport, type NightsResults, type DoneWhen, type ScalingRow } from './nightsReport.ts';

const { values } = parseArgs({
  options: {
    nights: { type: 'string', default: '100' },
    days: { type: 'string', default: '30' },
    'steps-per-day': { type: 'string', default: '24' },
    seed: { type: 'string', default: '7' },
    checks: { type: 'string', default: process.env.BENCH_NIGHTS_CHECKS ?? 'verify' },
    scaling: { type: 'string', default: '1,10,100' },
    'scaling-days': { type: 'string', default: '1' },
    /** Measured nights per scaling world (after its warm-up night): each phase's figure is their median. */
    'scaling-nights': { type: 'string', default: '3' },
    'lake-file-bound': { type: 'string' },
    /** The lake's snapshot retention (lake.snapshotDays) in minutes of wall time: 100 nights take about an hour here, not 100 days. */
    'snapshot-minutes': { type: 'string', default: '10' },
    'night-timeout': { type: 'string', default: '600' },
    /** warehouse.memoryLimit of every world's config (default: the product's, DEFAULT_MEMORY_LIMIT). */
    'memory-limit': { type: 'string' },
    /** sweepConcurrency of every world's config (default: the product's, SWEEP_CONCURRENCY). */
    'sweep-concurrency': { type: 'string' },
    'data-dir': { type: 'string', default: join(ROOT, 'data', 'bench-nights') },
    'skip-nights': { type: 'boolean', default: false },
    'skip-scaling': { type: 'boolean', default: false },
    'skip-idle': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    /** The nights without the lake export (the backfill's lake stays as it was): what the sync alone costs and holds; no lake figure is judged. */
    'no-export': { type: 'boolean', default: false },
  },
});
const int = (name: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`bench:nights: --${name} must be an integer >= ${min}, got "${v}"`);
    process.exit(2);
  }
  return n;
};
const NIGHTS = int('nights', values.nights, 1);
const DAYS = int('days', values.days, 1);
const STEPS_PER_DAY = int('steps-per-day', values['steps-per-day'], 1);
const SEED = int('seed', values.seed, 0);
const SCALING_DAYS = int('scaling-days', values['scaling-days'], 1);
const SCALING_NIGHTS = int('scaling-nights', values['scaling-nights'], 1);
const SCALES = values.scaling.split(',').map((s) => int('scaling', s, 1));
const CHECKS = values.checks.trim() === 'none' || values.checks.trim() === '' ? null : values.checks.trim().split(/\s+/);
/** Nights in each window of the "last nights / tenth night" figures: the median of WINDOW nights ending at each. */
const WINDOW = 5;
const DATA_DIR = resolve(values['data-dir']);
const MEMORY_LIMIT = values['memory-limit'];
/** The config changes every world of the bench gets. */
const SWEEP = values['sweep-concurrency'] === undefined ? undefined : int('sweep-concurrency', values['sweep-concurrency'], 1);
const SNAPSHOT_MINUTES = int('snapshot-minutes', values['snapshot-minutes'], 1);
const tune = (config: PipelineConfig) => {
  if (config.lake.format === 'ducklake') config.lake = { ...config.lake, snapshotDays: SNAPSHOT_MINUTES / 1440 };
  if (MEMORY_LIMIT) config.warehouse = { ...config.warehouse, memoryLimit: MEMORY_LIMIT };
  if (SWEEP !== undefined) config.sweepConcurrency = SWEEP;
};
const NIGHT_TIMEOUT_MS = int('night-timeout', values['night-timeout'], 1) * 1000;
const TABLE_AT = [1, 10, 100, 365];
const SCHEDULE_ID = 'glacier-nights-bench';
/** A cron that does not fire during a run (1 January, 03:00 UTC): every night here is a trigger. */
const CRON = '0 3 1 1 *';

const started = performance.now();
const log = (line: string) => console.log(`[${fmt((performance.now() - started) / 1000, 0).padStart(5)} s] ${line}`);


const mb = (bytes: number) => bytes / 2 ** 20;

function nightLine(n: NightFigures, before?: NightFigures): string {
  const p = n.phases;
  return [
    `night ${String(n.night).padStart(3)}`,
    `${n.run.partitions} partitions`,
    `${fmt(n.run.rowsAdded)} rows read${before ? ` (+${fmt(n.storedRows - before.storedRows)} stored)` : ''}`,
    `wall ${fmt(n.wallS, 1)} s`,
    `CPU ${fmt(n.cpu.total, 1)} s (worker ${fmt(n.cpu.worker, 1)}, server ${fmt(n.cpu.server, 1)}, client ${fmt(n.cpu.client, 1)})`,
    `sync ${fmt(p.sync.cpuS, 1)}/${fmt(p.sync.wallS, 1)} s`,
    `export ${fmt(p.export.cpuS, 1)}/${fmt(p.export.wallS, 1)} s`,
    `checks ${fmt(p.checks.cpuS, 1)}/${fmt(p.checks.wallS, 1)} s`,
    `CU ${fmt(n.records.cu)} (${fmt(n.records.requests)} req; sim ${fmt(p.sync.cu + p.checks.cu)})`,
    `files +${fmt(n.lake.written)} -> ${fmt(n.lake.files)} (${fmt(mb(n.lake.bytes), 1)} MB; catalog ${fmt(n.lake.snapshots ?? 0)} snapshots, ${fmt(n.lake.catalogFiles ?? 0)} file rows)`,
    `warehouse ${fmt(mb(n.warehouseBytes), 1)} MB`,
    `temporal ${fmt(mb(n.temporal.bytes), 1)} MB, ${fmt(n.temporal.nightEvents)} events`,
    `RSS ${fmt(n.worker.rssMb)} MB (night's peak ${fmt(n.worker.nightPeakMb)}${n.worker.objectCacheMb === undefined ? '' : `; DuckDB object cache ${fmt(n.worker.objectCacheMb, 1)}`})`,
    `queries ${fmt(n.queries.dayMs)}/${fmt(n.queries.historyMs)} ms`,
    n.checks.ok ? 'checks ok' : `CHECKS FAILED: ${n.checks.summary}`,
    ...(n.run.failed.length ? [`FAILED PARTITIONS: ${n.run.failed.join('; ')}`] : []),
  ].join('  ');
}

function verdict(figure: number, bound: number): string {
  if (!Number.isFinite(figure)) return 'n/a';
  return figure <= bound ? 'PASS' : 'MISS';
}
const ratio = (a: number, b: number) => (b > 0 ? a / b : a === 0 ? 1 : Infinity);

/** Backfill (a CLI client of the running service) and the nightly schedule. */
async function prepare(svc: NightService, label: string): Promise<{ seconds: number; cpu: number }> {
  const cpu0 = svc.cpu();
  // Bounded, so a backfill that never ends (a defect) fails this bench instead of hanging it.
  const backfill = await svc.mustCli(['backfill', '--json'], NIGHT_TIMEOUT_MS * 3);
  const cpu1 = svc.cpu();
  const cpu = backfill.cpuSeconds + cpu1.worker - cpu0.worker + cpu1.server - cpu0.server;
  log(`${label}: backfill ${fmt(backfill.seconds, 1)} s, ${fmt(cpu, 1)} CPU s (worker + server + client)`);
  await svc.mustCli(['schedule', 'create', '--cron', CRON, '--id', SCHEDULE_ID, ...(values['no-export'] ? ['--no-export'] : [])]);
  return { seconds: backfill.seconds, cpu };
}

/** After the last night: the worker stops, and its warehouse is compared with the simulator's ground truth. */
async function compareFinal(svc: NightService, snapshotAt: number): Promise<{ equal: boolean; expected: number; lost: number; duplicated: number; examples: string[] }> {
  await svc.stopWorker();
  const warehouse = await openWarehouse(svc.warehouseFile);
  try {
    const source = remoteTruthSource(svc.sim.baseUrl, svc.sim.metricsUrl);
    const config = resolveConfig(svc.config, { GLACIER_DATA_DIR: svc.dataDir });
    const core = createSyncCore({ client: truthClient(source), warehouse, config, logger: createLogger({ level: 'silent' }) });
    const partitions = [...(await core.planPartitions({})), ...(await core.planPartitions({ discovered: true }))];
    const tables = [...(await compareWithTruth(source, warehouse, partitions, { snapshotAt })), ...(await compareWithTruth(source, warehouse, partitions, { snapshotAt, latest: true }))];
    const lost = tables.reduce((n, t) => n + t.lost, 0);
    const duplicated = tables.reduce((n, t) => n + t.duplicated, 0);
    return { equal: lost === 0 && duplicated === 0, expected: tables.reduce((n, t) => n + t.expected, 0), lost, duplicated, examples: tables.flatMap((t) => t.examples.map((e) => `${t.table}: ${e}`)).slice(0, 10) };
  } finally {
    await warehouse.close();
  }
}

/** The Parquet lake of 0.2.0 on this world: files after 100 nights (issue 41) and MiB at night 11 (bench/README.md, "The DuckLake lake, first nights"). */
const PARQUET_LAKE = { files: 752, night: 11, mib: 7.2 };

// --- the run of nights ---------------------------------------------------------------------------
async function runNights(): Promise<NightsResults['nights']> {
  const dir = join(DATA_DIR, 'nights');
  rmSync(dir, { recursive: true, force: true });
  const size = nightsSize(DAYS, STEPS_PER_DAY);
  log(`nights: a ${DAYS}-day world (${STEPS_PER_DAY} steps a day: ${fmt(size.evmBlocks!)} C-chain blocks, ${fmt(size.pnTxsPerChain!)} primary-network transactions per chain), ${NIGHTS} nights, checks: ${CHECKS ? CHECKS.join(' ') : 'none'}`);
  const svc = await NightService.start({ label: 'nights', dir, simulator: { seed: SEED, size }, tune, log });
  const analyst = await Analyst.open();
  try {
    const backfill = await prepare(svc, 'nights');
    const nights: NightFigures[] = [];
    let stalled: { night: number; seconds: number; reasons: string[] } | undefined;
    const stopFile = join(DATA_DIR, 'STOP');
    rmSync(stopFile, { force: true });
    for (let night = 1; night <= NIGHTS; night++) {
      if (existsSync(stopFile)) {
        log(`${stopFile} exists: stopping after night ${night - 1} of ${NIGHTS}`);
        break;
      }
      let n: NightFigures;
      try {
        n = await runNight(svc, night, { scheduleId: SCHEDULE_ID, checks: CHECKS, grow: true, countAll: TABLE_AT.includes(night) || night === NIGHTS, analyst, timeoutMs: NIGHT_TIMEOUT_MS });
      } catch (error) {
        if (!(error instanceof NightStalled)) throw error;
        // A stalled night ends the run of nights: the next would only queue behind it.
        log(`STALLED: ${error.message}`);
        stalled = { night, seconds: error.seconds, reasons: error.reasons };
        break;
      }
      nights.push(n);
      log(nightLine(n, nights.at(-2)));
      if (TABLE_AT.includes(night) && night !== NIGHTS) console.log(`\n${nightsTable(nights.filter((x) => TABLE_AT.includes(x.night)))}\n`);
    }
    const shown = nights.filter((x) => TABLE_AT.includes(x.night) || x === nights.at(-1));
    console.log(`\nnights: table at nights ${shown.map((x) => x.night).join(', ')}\n${nightsTable(shown)}\n`);
    let truth: NonNullable<NightsResults['nights']>['truth'] = { equal: false, expected: 0, lost: 0, duplicated: 0, examples: ['not compared: a night stalled'] };
    if (!stalled && nights.length) {
      log('comparing the final warehouse with ground truth');
      truth = await compareFinal(svc, nights.at(-1)!.run.snapshotAt);
      log(truth.equal ? `final warehouse equals ground truth (${fmt(truth.expected)} rows compared)` : `FINAL WAREHOUSE DIFFERS: ${truth.lost} lost, ${truth.duplicated} unexpected; ${truth.examples.join('; ')}`);
    }
    return { days: DAYS, stepsPerDay: STEPS_PER_DAY, size, backfill, nights, truth, stalled };
  } finally {
    await svc.stop();
    if (!values.keep) rmSync(join(dir, 'data'), { recursive: true, force: true });
  }
}

// --- a night with no growth on the small world (84 partitions) --------------------------------------
const IDLE_NIGHTS = 3;
async function runIdle(): Promise<NightsResults['idle']> {
  const dir = join(DATA_DIR, 'idle');
  rmSync(dir, { recursive: true, force: true });
  log(`idle: the small world (default clocks), backfill, then nights with no growth`);
  const svc = await NightService.start({ label: 'idle', dir, simulator: { seed: SEED, size: 'small' }, tune, log });
  try {
    await prepare(svc, 'idle');
    const warm = await runNight(svc, 1, { scheduleId: SCHEDULE_ID, checks: CHECKS, grow: false });
    log(`idle warm-up ${nightLine(warm)}`);
    // The median of three measured nights: one night's figure moved by 0.5 CPU s between runs of one build.
    const measured: Awaited<ReturnType<typeof runNight>>[] = [];
    for (let night = 2; night <= 1 + IDLE_NIGHTS; night++) {
      const n = await runNight(svc, night, { scheduleId: SCHEDULE_ID, checks: CHECKS, grow: false });
      log(`idle ${nightLine(n, warm)}`);
      measured.push(n);
    }
    const byCpu = [...measured].sort((a, b) => a.cpu.worker + a.cpu.server - (b.cpu.worker + b.cpu.server));
    const median = byCpu[Math.floor(byCpu.length / 2)];
    return { partitions: median.run.partitions, night: median, nights: measured.map((n) => n.cpu.worker + n.cpu.server) };
  } finally {
    await svc.stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

// --- 1x / 10x / 100x histories, the same night of growth ----------------------------------------------
/** Scaling worlds whose backfill did not finish, and why. */
const failures: { scale: number; days: number; reason: string }[] = [];

/**
 * Every world is backfilled and warmed up first, then their measured nights take turns (1x, 10x,
 * 100x, then 10x, 100x, 1x, ...): a load that comes and goes on this shared machine falls on every
 * world alike, instead of on whichever world was running then.
 */
async function runScaling(): Promise<ScalingRow[]> {
  interface World {
    k: number;
    days: number;
    dir: string;
    svc: NightService;
    backfill: { seconds: number; cpu: number };
    measured: NightFigures[];
    last: NightFigures;
  }
  const worlds: World[] = [];
  const started: NightService[] = [];
  try {
    for (const k of SCALES) {
      const days = SCALING_DAYS * k;
      const dir = join(DATA_DIR, `scale-${k}x`);
      rmSync(dir, { recursive: true, force: true });
      const size = nightsSize(days, STEPS_PER_DAY);
      log(`scaling ${k}x: a ${days}-day history (${fmt(size.evmBlocks!)} C-chain blocks, ${fmt(size.pnTxsPerChain!)} primary-network transactions per chain)`);
      const svc = await NightService.start({ label: `${k}x`, dir, simulator: { seed: SEED, size }, tune, log });
      started.push(svc);
      let backfill: { seconds: number; cpu: number };
      try {
        backfill = await prepare(svc, `${k}x`);
      } catch (error) {
        // One world that cannot be backfilled leaves the others' figures standing.
        const reason = (error as Error).message.split('\n').slice(0, 3).join(' ').slice(0, 600);
        log(`${k}x: BACKFILL FAILED: ${reason}`);
        failures.push({ scale: k, days, reason });
        continue;
      }
      // One warm-up night (the first after a backfill), then the measured ones: each grows one day.
      const warm = await runNight(svc, 1, { scheduleId: SCHEDULE_ID, checks: CHECKS, grow: true });
      log(`${k}x warm-up ${nightLine(warm)}`);
      worlds.push({ k, days, dir, svc, backfill, measured: [], last: warm });
    }
    // A phase's figure is its median over the measured nights (one night's CPU on this shared machine
    // moves by a third from run to run).
    for (let i = 0; i < SCALING_NIGHTS; i++) {
      for (let j = 0; j < worlds.length; j++) {
        const w = worlds[(i + j) % worlds.length];
        const n = await runNight(w.svc, 2 + i, { scheduleId: SCHEDULE_ID, checks: CHECKS, grow: true });
        log(`${w.k}x ${nightLine(n, w.last)}`);
        w.measured.push(n);
        w.last = n;
      }
    }
    return worlds.map((w) => ({ scale: w.k, days: w.days, storedRows: w.last.storedRows, backfill: w.backfill, night: medianNight(w.measured), nights: w.measured.length }));
  } finally {
    for (const svc of started) await svc.stop();
    if (!values.keep) for (const k of SCALES) rmSync(join(DATA_DIR, `scale-${k}x`), { recursive: true, force: true });
  }
}

function doneWhen(results: NightsResults): DoneWhen[] {
  const out: DoneWhen[] = [];
  const s = results.scaling;
  for (const f of results.scalingFailures ?? []) out.push({ item: `${f.scale}x history (${f.days} days)`, figure: `backfill did not finish: ${f.reason.slice(0, 200)}`, bound: 'a night to compare', verdict: 'MISS' });
  if (s && s.length >= 2) {
    const first = s[0];
    const last = s.at(-1)!;
    for (const phase of PHASES as Phase[]) {
      for (const key of ['cpuS', 'wallS', 'cu'] as const) {
        const a = first.night.phases[phase][key];
        const b = last.night.phases[phase][key];
        const figure = a === 0 && b === 0 ? NaN : ratio(b, a);
        out.push({ item: `${last.scale}x / ${first.scale}x history, ${phase} ${key === 'cpuS' ? 'CPU' : key === 'wallS' ? 'wall' : 'CU'}`, figure: Number.isNaN(figure) ? 'none in either' : `${fmt(figure, 2)}x (${fmt(b, 2)} vs ${fmt(a, 2)})`, bound: '<= 1.2x', verdict: Number.isNaN(figure) ? 'n/a' : verdict(figure, 1.2) });
      }
    }
  }
  if (results.idle) {
    const n = results.idle.night;
    const ws = n.cpu.worker + n.cpu.server;
    out.push({ item: `night with no growth, small world (${results.idle.partitions} partitions): worker + server CPU, median of ${results.idle.nights?.length ?? 1} nights`, figure: `${fmt(ws, 2)} CPU s with the checks${results.idle.nights ? ` (each: ${results.idle.nights.map((v) => fmt(v, 2)).join(', ')})` : ''} (the scheduled run alone: ${fmt(n.cpu.runWorkerServer, 2)}; the CLI clients besides: ${fmt(n.cpu.client, 2)})`, bound: '<= 2 CPU s', verdict: verdict(ws, 2) });
  }
  const r = results.nights;
  if (r && r.nights.length === 0) out.push({ item: 'nights', figure: r.stalled ? `night 1 stalled` : 'none ran', bound: '-', verdict: 'MISS' });
  if (r && r.nights.length) {
    const ns = r.nights;
    const tenth = ns.find((n) => n.night === 10);
    const last = ns.at(-1)!;
    if (tenth && last.night > 10) {
      // One night's CPU on this shared machine moves by 0.1-0.3 of itself from night to night, so the
      // verdict compares the median of the WINDOW nights ending at each point (the scaling worlds
      // compare medians too); the single nights are printed beside it.
      const early = ns.filter((n) => n.night > 10 - WINDOW && n.night <= 10);
      const late = ns.slice(-WINDOW);
      const span = (w: NightFigures[]) => (w.length === 1 ? `night ${w[0].night}` : `nights ${w[0].night}-${w.at(-1)!.night}`);
      for (const [label, f] of [['CPU', (n: NightFigures) => n.cpu.total], ['wall', (n: NightFigures) => n.wallS], ['CU', (n: NightFigures) => n.records.cu]] as const) {
        const [a, b] = [median(early.map(f)), median(late.map(f))];
        const x = ratio(b, a);
        const single = ratio(f(last), f(tenth));
        out.push({
          item: `${span(late)} / ${span(early)} ${label} (medians)`,
          figure: `${fmt(x, 2)}x (${fmt(b, 1)} vs ${fmt(a, 1)}; night ${last.night} / night 10 alone: ${fmt(single, 2)}x, ${fmt(f(last), 1)} vs ${fmt(f(tenth), 1)})`,
          bound: '<= 1.2x',
          verdict: verdict(x, 1.2),
        });
      }
      const peak = ratio(last.worker.peakMb, tenth.worker.peakMb);
      // Temporal: each night's workflows close and go with the namespace's retention (24 h on the dev
      // server), so what a deployment holds is bounded by one night's histories: flat nightly events.
      const events = ratio(last.temporal.nightEvents, tenth.temporal.nightEvents);
      out.push({ item: `history events a night, night ${last.night} / night 10`, figure: `${fmt(events, 2)}x (${fmt(last.temporal.nightEvents)} vs ${fmt(tenth.temporal.nightEvents)})`, bound: '<= 1.1x (bounded)', verdict: verdict(events, 1.1) });
      out.push({ item: `worker peak RSS, night ${last.night} / night 10`, figure: `${fmt(peak, 2)}x (${fmt(last.worker.peakMb)} vs ${fmt(tenth.worker.peakMb)} MB)`, bound: '<= 1.1x (flat)', verdict: verdict(peak, 1.1) });
      // Each night's own peak (VmHWM reset as it starts): whether a later night needs more, apart from the largest spike of all the nights before.
      const [ownEarly, ownLate] = [median(early.map((n) => n.worker.nightPeakMb)), median(late.map((n) => n.worker.nightPeakMb))];
      const own = ratio(ownLate, ownEarly);
      out.push({ item: `worker's peak RSS within a night, ${span(late)} / ${span(early)} (medians)`, figure: `${fmt(own, 2)}x (${fmt(ownLate)} vs ${fmt(ownEarly)} MB)`, bound: '<= 1.1x (flat)', verdict: verdict(own, 1.1) });
    } else out.push({ item: 'night N / night 10', figure: 'needs more than 10 nights', bound: '<= 1.2x', verdict: 'n/a' });
    const first = ns[0];
    if (values['no-export']) out.push({ item: 'the lake: bytes per row, files, MiB', figure: 'not measured (--no-export)', bound: '-', verdict: 'n/a' });
    else {
      const bpr = (n: NightFigures) => n.warehouseBytes / Math.max(1, n.storedRows);
      const b = ratio(bpr(last), bpr(first));
      out.push({ item: `warehouse bytes per stored row, night ${last.night} / night 1`, figure: `${fmt(b, 2)}x (${fmt(bpr(last), 1)} vs ${fmt(bpr(first), 1)} B/row)`, bound: '<= 1.1x', verdict: verdict(b, 1.1) });
      // The bound: the files the Parquet lake of 0.2 (lake layout 4: a file per day of each group's
      // newest month, one per earlier month) held after the same 100 nights, and its bytes at night 11
      // (bench/README.md). The DuckLake's live data and delete files (a reader of the latest snapshot opens no other).
      const bound = values['lake-file-bound'] ? Number(values['lake-file-bound']) : PARQUET_LAKE.files;
      out.push({ item: `lake files after ${last.night} nights (${r.days + last.night} days of history)`, figure: `${fmt(last.lake.files)} (night 1: ${fmt(first.lake.files)})`, bound: `<= ${fmt(bound)} (${values['lake-file-bound'] ? '--lake-file-bound' : 'the Parquet lake of 0.2'})`, verdict: verdict(last.lake.files, bound) });
      const same = ns.find((n) => n.night === PARQUET_LAKE.night);
      if (same) out.push({ item: `lake MiB at night ${same.night} (the same rows as 0.2.0's)`, figure: `${fmt(mb(same.lake.bytes), 1)} MiB (after ${last.night} nights: ${fmt(mb(last.lake.bytes), 1)} MiB, ${fmt(last.lake.bytes / Math.max(1, last.storedRows), 1)} B per stored row)`, bound: `<= ${PARQUET_LAKE.mib} (the Parquet lake of 0.2.0)`, verdict: verdict(mb(same.lake.bytes), PARQUET_LAKE.mib) });
    }
    const red = ns.filter((n) => !n.checks.ok || n.run.failed.length);
    const stalledText = r.stalled ? `; night ${r.stalled.night} STALLED (no end within ${r.stalled.seconds} s)` : '';
    out.push({ item: 'every night: checks green, no failed partition, none stalled', figure: red.length ? `${red.length} night(s) not green: ${red.slice(0, 5).map((n) => n.night).join(', ')}${stalledText}` : `${ns.length} of ${ns.length + (r.stalled ? 1 : 0)} green${stalledText}`, bound: 'all', verdict: red.length || r.stalled ? 'MISS' : 'PASS' });
    out.push({ item: 'final warehouse equals ground truth', figure: r.truth.equal ? `equal (${fmt(r.truth.expected)} rows)` : r.stalled ? 'not compared (a night stalled)' : `${r.truth.lost} lost, ${r.truth.duplicated} unexpected`, bound: 'equal', verdict: r.truth.equal ? 'PASS' : 'MISS' });
  }
  return out;
}

mkdirSync(DATA_DIR, { recursive: true });
const results: NightsResults = { startedAt: new Date().toISOString(), args: { nights: NIGHTS, days: DAYS, stepsPerDay: STEPS_PER_DAY, seed: SEED, checks: CHECKS, scaling: SCALES, scalingDays: SCALING_DAYS, scalingNights: SCALING_NIGHTS, memoryLimit: MEMORY_LIMIT ?? `default (${DEFAULT_MEMORY_LIMIT})`, sweepConcurrency: SWEEP ?? `default (${SWEEP_CONCURRENCY})` }, doneWhen: [] };
try {
  if (!values['skip-nights']) results.nights = await runNights();
  if (!values['skip-idle']) results.idle = await runIdle();
  if (!values['skip-scaling']) {
    results.scaling = await runScaling();
    results.scalingFailures = failures;
    console.log(`\nscaling: the same night of growth on ${SCALES.map((k) => `${k}x`).join(', ')} histories (a ${SCALING_DAYS}-day history is 1x)\n${scalingTable(results.scaling)}\n`);
  }
} finally {
  results.doneWhen = doneWhen(results);
  results.totalSeconds = (performance.now() - started) / 1000;
  console.log(`"Done when" (issue 26): figures beside their bounds\n`);
  for (const d of results.doneWhen) console.log(`  ${d.verdict.padEnd(4)}  ${d.item}: ${d.figure}  (bound ${d.bound})`);
  const files = writeNightsReport(DATA_DIR, results);
  console.log(`\nbench:nights: ${fmt(results.totalSeconds, 0)} s; results ${files.json}, report ${files.markdown} and ${files.html}`);
}
// A stalled night's client connection stays open on purpose (nightsService.ts): end here.
process.exit(process.exitCode ?? 0);
