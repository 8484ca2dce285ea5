import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { configForWorld } from '../../cli/demoConfig.ts';
import { startSimulator, FAULT_KINDS, type FaultKind, type WorldSizeName } from '../../tools/simulator/index.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/warehouse.ts';
import { exportLake } from '../../activities/lake/export.ts';
import { DevServer } from '../../worker/devServer.ts';
import { resolveConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';
import { lakeOf, warehousePath } from '../../worker/paths.ts';
import { pipelineWorkflow, type PipelineStatus } from '../../workflows/pipeline.ts';
import { allTables, STREAMS } from '../../activities/streams/catalog.ts';
import { compareWithTruth, truthClient, type TableComparison } from '../helpers/truthTables.ts';
import { emptiedBetween, snapshotRowCounts } from '../helpers/snapshotCounts.ts';
import { WorkerProcess } from './workerProcess.ts';

/**
 * A crash campaign: backfill then sync a simulated world through real `glacier-etl worker`
 * processes that are SIGKILLed at random moments, with the Temporal dev server restarted mid-run
 * and every simulator fault switched on. At the end the warehouse must equal ground truth exactly,
 * and the API key must appear in no log, no workflow history, no table and no exported file. The
 * latest snapshot views are compared too: the world's growth empties some snapshots (a token sold
 * off, an atomic-memory balance imported), and those must read as empty.
 */
export interface CampaignOptions {
  size: WorldSizeName;
  seed: number;
  /** Worker SIGKILLs to perform (spread over the run). */
  kills: number;
  serverRestarts: number;
  /** Probability of each fault kind per request. */
  faultRate: number;
  /** Random pause between kills, ms. */
  killEveryMs: [number, number];
  advanceSteps: number;
  /** Schema drift from the start (issue 27; without the type changes, so every partition finishes): the warehouse must still equal ground truth. */
  drift?: boolean;
  log?: (line: string) => void;
}

export interface CampaignReport {
  kills: number;
  serverRestarts: number;
  faultsInjected: Record<FaultKind, number>;
  rowsExpected: number;
  rowsFound: number;
  lost: number;
  duplicated: number;
  /** Every table at the sync's snapshot, then every `*_latest` view (named v_…_latest). */
  tables: TableComparison[];
  /** Snapshot partitions with rows at the backfill and none at the sync. */
  emptiedSnapshots: string[];
  secretLeaks: string[];
  /** Rows of _glacier_drift at the end (campaign with drift). */
  driftRows: number;
  seconds: number;
}

const SECRET = 'glacier-campaign-secret-key-7f3a9c';

/** How long a phase may run after its last kill before the campaign gives up and says what is pending (alone it takes about 90 s). */
const PHASE_DEADLINE_MS = 300_000;

/**
 * What a stuck run waits on, for the failure message: the pending activities of the pipeline and of
 * its running child workflows (attempt and last failure), then the worker's last warnings and errors.
 */
async function whatIsPending(client: Client, workflowId: string, worker: WorkerProcess): Promise<string> {
  const lines: string[] = [];
  const describe = async (id: string, depth: number): Promise<void> => {
    const { raw } = await client.workflow.getHandle(id).describe();
    for (const a of raw.pendingActivities ?? []) lines.push(`${id}: activity ${a.activityType?.name} attempt ${a.attempt} state ${a.state}${a.lastFailure?.message ? `, last failure: ${a.lastFailure.message}` : ''}`);
    if (depth === 0) for (const c of raw.pendingChildren ?? []) if (c.workflowId) await describe(c.workflowId, 1);
  };
  await describe(workflowId, 0).catch((e: unknown) => lines.push(`describe failed: ${String(e)}`));
  const all = worker.logs.join('').split('\n').filter((l) => l.trim());
  const logged = all.filter((l) => /"level":(40|50|60)/.test(l));
  lines.push(`worker ${worker.running ? 'running' : `not running (${worker.exit ?? 'never started'})`}, started ${worker.starts} times`);
  lines.push(`worker warnings and errors (last 20 of ${logged.length}):`, ...logged.slice(-20).map((l) => `  ${l.slice(0, 400)}`));
  lines.push('worker output, last 10 lines:', ...all.slice(-10).map((l) => `  ${l.slice(0, 400)}`));
  return lines.join('\n');
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const random = rng(options.seed * 7919);
  const dir = mkdtempSync(join(tmpdir(), 'glacier-campaign-'));
  // Two kinds can act on few requests: shortPage only on the primary-network transaction lists (the
  // one route with its hook), expiredToken only on requests that carry a page token. At the common
  // rate shortPage fired once or twice a campaign and expiredToken two or three times, and a run
  // that drew none failed the coverage check. Their rates are raised so each stays well above zero.
  const rate = (k: FaultKind) =>
    k === 'slow' ? Math.min(options.faultRate, 0.05) : k === 'shortPage' ? Math.min(options.faultRate * 5, 0.5) : k === 'expiredToken' ? Math.min(options.faultRate * 2, 0.5) : options.faultRate;
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, rate(k)])) as Record<FaultKind, number>;
  const fixedNow = Date.UTC(2026, 10, 1, 12, 0, 0);
  const sim = await startSimulator({ seed: options.seed, size: options.size, keys: [{ key: SECRET, tier: 'pro' }], faults, faultSeed: options.seed, clock: () => fixedNow, ...(options.drift ? { drift: { fromStep: 0, typeChanges: false } } : {}) });
  const server = new DevServer({ dataDir: join(dir, 'temporal'), headless: true });
  let worker: WorkerProcess | undefined;
  let connection: Connection | undefined;
  let warehouse: Warehouse | undefined;
  let serverRestarts = 0;
  try {
    await server.start();
    const dataDir = join(dir, 'data');
    const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir, addressesPerChain: 2 });
    base.api.pageSize = 25;
    base.api.maxRetries = 30;
    base.api.requestTimeoutMs = 5000;
    base.temporal.taskQueue = `campaign-${options.seed}`;
    const configPath = join(dir, 'config.yaml');
    writeFileSync(configPath, toYaml(base));
    const config = resolveConfig(base, { GLACIER_DATA_DIR: dataDir });
    worker = new WorkerProcess({ TEMPORAL_ADDRESS: server.address, GLACIER_API_KEY: SECRET, LOG_LEVEL: 'debug' }, configPath);
    worker.start();
    connection = await Connection.connect({ address: server.address });
    let client = new Client({ connection });

    const killsPerRun = [Math.ceil(options.kills / 2), Math.floor(options.kills / 2)];
    const restartAtKill = new Set(Array.from({ length: options.serverRestarts }, (_, i) => Math.floor(((i + 1) * options.kills) / (options.serverRestarts + 1))));
    let killsDone = 0;

    const runWithChaos = async (mode: 'backfill' | 'sync', kills: number): Promise<PipelineStatus> => {
      const workflowId = `campaign-${mode}-${options.seed}`;
      await client.workflow.start(pipelineWorkflow, {
        taskQueue: config.temporal.taskQueue,
        workflowId,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [{ mode, streams: config.streams, partitionConcurrency: 4, maxPagesPerBatch: 3, exportParquet: true }],
      });
      for (let k = 0; k < kills; k++) {
        const [lo, hi] = options.killEveryMs;
        await new Promise((r) => setTimeout(r, lo + random() * (hi - lo)));
        await worker!.kill();
        killsDone += 1;
        log(`kill ${killsDone} (${mode})`);
        if (restartAtKill.has(killsDone)) {
          await connection!.close();
          await server.restart();
          serverRestarts += 1;
          log(`temporal dev server restarted (${serverRestarts})`);
          connection = await Connection.connect({ address: server.address });
          client = new Client({ connection });
        }
        worker!.start();
      }
      const handle = client.workflow.getHandle(workflowId);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void whatIsPending(client, workflowId, worker!).then((why) => reject(new Error(`the ${mode} did not finish within ${PHASE_DEADLINE_MS / 1000} s after its last kill:\n${why}`)), reject);
        }, PHASE_DEADLINE_MS);
      });
      try {
        return (await Promise.race([handle.result(), deadline])) as PipelineStatus;
      } finally {
        clearTimeout(timer);
      }
    };

    const backfill = await runWithChaos('backfill', killsPerRun[0]);
    log(`backfill finished: ${backfill.partitions.filter((p) => p.state === 'done').length}/${backfill.partitions.length} partitions`);
    // What each snapshot partition holds at the backfill (faults off for these reads), to tell which the growth empties.
    const snapshotPartitions = config.streams.flatMap((s) => STREAMS[s].partitions(config));
    sim.setFaults({});
    const heldAtBackfill = await snapshotRowCounts(sim, snapshotPartitions);
    sim.setFaults(faults);
    sim.advance(options.advanceSteps);
    const sync = await runWithChaos('sync', killsPerRun[1]);
    log(`sync finished: ${sync.partitions.filter((p) => p.state === 'done').length}/${sync.partitions.length} partitions`);
    const failed = [...backfill.partitions, ...sync.partitions].filter((p) => p.state !== 'done');
    if (failed.length) throw new Error(`partitions did not finish: ${failed.map((p) => `${p.partitionId}: ${p.error}`).join('; ')}`);

    // Workflow histories, read back through the client, must not carry the key.
    const secretLeaks: string[] = [];
    for await (const execution of client.workflow.list({ query: `TaskQueue = '${config.temporal.taskQueue}'` })) {
      const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      if (JSON.stringify(history).includes(SECRET)) secretLeaks.push(`history of ${execution.workflowId}`);
    }
    await worker.stop();
    if (worker.logs.join('').includes(SECRET)) secretLeaks.push('worker logs');

    // Ground truth with faults off: compare every table, then look for the key in rows and the lake.
    sim.setFaults({});
    warehouse = await openWarehouse(warehousePath(dataDir));
    const core = createSyncCore({ client: truthClient(sim), warehouse, config, logger: createLogger({ level: 'silent' }) });
    const partitions = [...(await core.planPartitions({})), ...(await core.planPartitions({ discovered: true }))];
    const tables = [
      ...(await compareWithTruth(sim, warehouse, partitions, { snapshotAt: sync.snapshotAt })),
      ...(await compareWithTruth(sim, warehouse, partitions, { snapshotAt: sync.snapshotAt, latest: true })),
    ];
    const emptiedSnapshots = emptiedBetween(heldAtBackfill, await snapshotRowCounts(sim, snapshotPartitions));
    const driftRows = (await warehouse.listDrift()).length;
    await exportLake(warehouse, allTables(), lakeOf({ dataDir }));
    secretLeaks.push(...(await secretInTables(warehouse, dataDir)));

    return {
      kills: killsDone,
      serverRestarts,
      faultsInjected: sim.stats().faultsInjected,
      rowsExpected: tables.reduce((n, t) => n + t.expected, 0),
      rowsFound: tables.reduce((n, t) => n + t.found, 0),
      lost: tables.reduce((n, t) => n + t.lost, 0),
      duplicated: tables.reduce((n, t) => n + t.duplicated, 0),
      tables,
      emptiedSnapshots,
      secretLeaks,
      driftRows,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await worker?.stop();
    await warehouse?.close();
    await connection?.close();
    await server.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Searches every warehouse table and every lake file (its Parquet files and its catalog, which holds small nights' rows) for the key, as text. */
async function secretInTables(warehouse: Warehouse, dataDir: string): Promise<string[]> {
  const leaks: string[] = [];
  const tables = await warehouse.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type = 'BASE TABLE'");
  for (const { table_name } of tables) {
    const name = String(table_name);
    if (!/^[a-z0-9_]+$/.test(name)) continue;
    const [row] = await warehouse.query(`SELECT count(*) AS n FROM "${name}" AS t WHERE contains(CAST(t AS VARCHAR), ?)`, [SECRET]);
    if (Number(row.n) > 0) leaks.push(`table ${name}`);
  }
  const out = join(dataDir, 'lake');
  let files: string[] = [];
  try {
    files = readdirSync(out, { recursive: true }).map(String);
  } catch {
    return leaks;
  }
  for (const file of files.filter((f) => !f.endsWith('.parquet'))) if (existsSync(join(out, file)) && statSync(join(out, file)).isFile() && readFileSync(join(out, file)).includes(SECRET)) leaks.push(`lake ${file}`);
  for (const file of files.filter((f) => f.endsWith('.parquet'))) {
    const [row] = await warehouse.query(`SELECT count(*) AS n FROM read_parquet(?) AS t WHERE contains(CAST(t AS VARCHAR), ?)`, [join(out, file), SECRET]);
    if (Number(row.n) > 0) leaks.push(`lake ${file}`);
  }
  return leaks;
}

export function formatReport(r: CampaignReport): string {
  const faults = Object.entries(r.faultsInjected).map(([k, n]) => `${k}=${n}`).join(' ');
  return [
    `kills: ${r.kills}`,
    `server restarts: ${r.serverRestarts}`,
    `faults injected: ${faults}`,
    `rows expected: ${r.rowsExpected}`,
    `rows found: ${r.rowsFound}`,
    `lost: ${r.lost}`,
    `duplicated: ${r.duplicated}`,
    `latest views compared: ${r.tables.filter((t) => t.table.endsWith('_latest')).length}, after ${r.emptiedSnapshots.length} snapshot(s) emptied by the growth${r.emptiedSnapshots.length ? ` (${r.emptiedSnapshots.slice(0, 3).join(', ')}${r.emptiedSnapshots.length > 3 ? ', …' : ''})` : ''}`,
    `secret leaks: ${r.secretLeaks.length ? r.secretLeaks.join(', ') : 'none'}`,
    `schema drift rows: ${r.driftRows}`,
    `seconds: ${r.seconds}`,
  ].join('\n');
}
