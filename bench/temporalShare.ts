/**
 * `npm run bench:temporal`: where the pipeline's time goes next to the same activities called
 * directly. Rounds of: the direct loop (bench/direct.ts), then the pipeline once per activity budget
 * (activityBudgetMs: how long one syncBatch activity keeps committing batches), each on a fresh
 * embedded dev server. Per run it prints wall time, this process's CPU (worker included), the dev
 * server's CPU, and from the workflow histories: activities and workflow tasks run, the time from
 * an activity's end to the next one's schedule (workflow task round trips), schedule-to-start
 * latency, and how long child workflows took to start. The machine is shared and noisy: compare
 * within one run (the best of the rounds is printed per variant, ratios against the best direct run).
 *
 *   npx tsx bench/temporalShare.ts    (BENCH_ROUNDS=2, BENCH_BUDGETS=0,10000, BENCH_PARTITIONS=6, BENCH_PAGES_PER_BATCH=20)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import proto from '@temporalio/proto';
import { openSession, type Session } from '../cli/session.ts';
import { startPipeline, summarize } from '../cli/runPipeline.ts';
import type { PipelineStatus } from '../workflows/pipeline.ts';
import { createLogger } from '../worker/logger.ts';
import { BENCH_SIZE, benchConfig, envNumber, fmt, startBenchSimulator, tempDir, UNLIMITED } from './benchWorld.ts';
import { runCeiling } from './ceiling.ts';
import { runDirect } from './direct.ts';

const { EventType } = proto.temporal.api.enums.v1;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

/** CPU ms of this process's children whose command line contains `marker` (Linux /proc; 0 elsewhere). */
function childCpuMs(marker: string): number {
  let ms = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
    } catch {
      // the process ended while we looked
    }
  }
  return ms;
}

/** Time in full (mark-compact) garbage collections, from the GC performance entries. */
let majorGcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as { detail?: { kind?: number } }).detail?.kind === 4) majorGcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

interface Orchestration {
  activities: number;
  workflowTasks: number;
  /** Sum over partitions: an activity's end to the next activity's schedule (or the workflow's end). */
  betweenActivitiesMs: number;
  scheduleToStartMs: number;
  childStartMs: number;
  longestPartitionMs: number;
  longestPartition: string;
}

const eventMs = (e: HistoryEvent) => Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6);

async function history(session: Session, workflowId: string): Promise<HistoryEvent[]> {
  return (await session.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

/** Reads the pipeline's and every partition's history. */
async function orchestration(session: Session, pipelineId: string, status: PipelineStatus): Promise<Orchestration> {
  const o: Orchestration = { activities: 0, workflowTasks: 0, betweenActivitiesMs: 0, scheduleToStartMs: 0, childStartMs: 0, longestPartitionMs: 0, longestPartition: '' };
  const parent = await history(session, pipelineId);
  const initiated = new Map<string, number>();
  for (const e of parent) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) o.workflowTasks += 1;
    const init = e.startChildWorkflowExecutionInitiatedEventAttributes;
    if (init?.workflowId) initiated.set(init.workflowId, eventMs(e));
    const started = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    if (started) o.childStartMs += eventMs(e) - (initiated.get(started) ?? eventMs(e));
  }
  for (const p of status.partitions) {
    const events = await history(session, p.workflowId);
    if (events.length === 0) continue;
    let scheduled = 0;
    let lastEnd = eventMs(events[0]);
    for (const e of events) {
      switch (e.eventType) {
        case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
          o.workflowTasks += 1;
          break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
          scheduled = eventMs(e);
          o.betweenActivitiesMs += scheduled - lastEnd;
          o.activities += 1;
          break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
          o.scheduleToStartMs += eventMs(e) - scheduled;
          break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED:
          lastEnd = eventMs(e);
          break;
      }
    }
    const end = eventMs(events[events.length - 1]);
    o.betweenActivitiesMs += end - lastEnd;
    if (end - eventMs(events[0]) > o.longestPartitionMs) {
      o.longestPartitionMs = end - eventMs(events[0]);
      o.longestPartition = p.partitionId;
    }
  }
  return o;
}

interface Run {
  variant: string;
  ms: number;
  cpuMs: number;
  serverCpuMs: number;
  majorGcMs: number;
  pages: number;
  orchestration?: Orchestration;
}

const partitions = envNumber('BENCH_PARTITIONS', 6);
const pagesPerBatch = envNumber('BENCH_PAGES_PER_BATCH', 20);
const rounds = envNumber('BENCH_ROUNDS', 2);
const budgets = (process.env.BENCH_BUDGETS ?? '0,10000').split(',').map(Number);
const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', base: { component: 'bench' } });

async function pipelineRun(sim: Awaited<ReturnType<typeof startBenchSimulator>>, activityBudgetMs: number): Promise<Run> {
  const tmp = tempDir('share');
  const config = benchConfig(sim, tmp.dir, { partitionConcurrency: partitions });
  const { GLACIER_API_KEY } = process.env;
  delete process.env.GLACIER_API_KEY; // keyless, as bench/direct.ts
  const session = await openSession({ ...config, temporalAddress: undefined }, { logger });
  if (GLACIER_API_KEY !== undefined) process.env.GLACIER_API_KEY = GLACIER_API_KEY;
  try {
    const server0 = childCpuMs('start-dev');
    const gc0 = majorGcMs;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const handle = await startPipeline(session, { mode: 'backfill', streams: config.streams, partitionConcurrency: partitions, maxPagesPerBatch: pagesPerBatch, activityBudgetMs, exportParquet: false });
    const status = await handle.result();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const run: Run = { variant: `pipeline, activityBudgetMs ${activityBudgetMs}`, ms, cpuMs: (used.user + used.system) / 1000, serverCpuMs: childCpuMs('start-dev') - server0, majorGcMs: majorGcMs - gc0, pages: summarize(status).pages };
    run.orchestration = await orchestration(session, handle.workflowId, status);
    return run;
  } finally {
    await session.close();
    tmp.remove();
  }
}

function describeRun(r: Run): string {
  const o = r.orchestration;
  const base = `${r.variant}: ${fmt(r.ms / 1000, 2)} s, CPU ${fmt(r.cpuMs / 1000, 2)} s here${r.orchestration ? ` + ${fmt(r.serverCpuMs / 1000, 2)} s dev server` : ''}, full GCs ${fmt(r.majorGcMs)} ms, ${fmt(r.pages)} pages`;
  if (!o) return base;
  return (
    `${base}\n      ${o.activities} activities, ${o.workflowTasks} workflow tasks; summed over partitions: ${fmt(o.betweenActivitiesMs / 1000, 2)} s between activities, ` +
    `${fmt(o.scheduleToStartMs / 1000, 2)} s schedule-to-start, ${fmt(o.childStartMs / 1000, 2)} s child starts; longest partition ${o.longestPartition} ${fmt(o.longestPartitionMs / 1000, 2)} s`
  );
}

const sim = await startBenchSimulator({ seed: 7, size: BENCH_SIZE, rateLimits: UNLIMITED });
const runs: Run[] = [];
try {
  const warm = tempDir('share-warm');
  await runCeiling(benchConfig(sim, warm.dir, { partitionConcurrency: partitions })); // simulator caches, JIT
  warm.remove();
  console.log(`${partitions} partitions in flight, ${pagesPerBatch} pages per batch, ${rounds} rounds, activity budgets ${budgets.join(', ')} ms`);
  for (let round = 1; round <= rounds; round++) {
    let d: Run | undefined;
    for (const heapBudget of [true, false]) {
      const tmp = tempDir('share-direct');
      const gc0 = majorGcMs;
      const r = await runDirect(benchConfig(sim, tmp.dir, { partitionConcurrency: partitions }), pagesPerBatch, { heapBudget });
      tmp.remove();
      const run: Run = { variant: heapBudget ? 'direct' : 'direct, no heap budget', ms: r.ms, cpuMs: r.cpuMs, serverCpuMs: 0, majorGcMs: majorGcMs - gc0, pages: r.pages };
      runs.push(run);
      d ??= run;
      console.log(`round ${round} ${describeRun(run)}`);
    }
    for (const budget of budgets) {
      const r = await pipelineRun(sim, budget);
      runs.push(r);
      console.log(`round ${round} ${describeRun(r)}\n      pipeline / direct (this round) ${fmt(d!.ms / r.ms, 2)}`);
    }
  }
} finally {
  await sim.close();
}

const best = (variant: string) => runs.filter((r) => r.variant === variant).reduce((a, b) => (b.ms < a.ms ? b : a));
const direct = best('direct');
console.log(`\nbest of ${rounds} rounds (pipeline / direct = direct time / pipeline time):`);
for (const variant of [...new Set(runs.map((r) => r.variant))]) {
  const r = best(variant);
  console.log(`  ${variant.padEnd(32)} ${fmt(r.ms / 1000, 2).padStart(6)} s   CPU ${fmt((r.cpuMs + r.serverCpuMs) / 1000, 2).padStart(5)} s   pipeline / direct ${variant.startsWith('direct') ? '   -' : fmt(direct.ms / r.ms, 2)}`);
}
