import { createHash } from 'node:crypto';
import { InvalidPageTokenError, ResponseValidationError } from '../api/errors.ts';
import { paginate } from '../api/paginate.ts';
import { streamOf } from '../streams/catalog.ts';
import { pageSizeFor } from '../streams/pageSize.ts';
import { emptyBatches, type Discovered, type DrivenPage, type StreamClient, type StreamDriver } from '../streams/streamDef.ts';
import { CHAIN_HEAD_PROBE, chainHeads } from '../streams/shared/chainHeads.ts';
import { storedValidatorNodeIds } from '../streams/shared/storedValidators.ts';
import { discoverChains, listsChains } from '../streams/shared/chainDiscovery.ts';
import { BASELINE_ITEMS, COUNTED_ITEMS, mergeDrift, type DriftSeen, type FieldPresence } from '../warehouse/driftRecord.ts';
import { frozenStop, typeChangeStop } from './driftStop.ts';
import type { ColumnBatch } from '../warehouse/columnBatch.ts';
import { CellBudget, IN_FLIGHT_MAX_CELLS } from './cellBudget.ts';
import { cellsOf, COMMIT_MAX_CELLS } from '../warehouse/commitGroup.ts';
import { recordPlanCost, recordRunCost, type RunCost, type Warehouse } from '../warehouse/warehouse.ts';
import { newMeter } from '../api/requestMeter.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { Logger } from '../../common/logger.ts';
import type { BatchInput, BatchResult, CheckpointView, PartitionSpec, PlanInput } from '../../common/activityTypes.ts';
import { advanceWalk, countWalk, foldMarks, mayRestartWalk, restartWalk, startWalk, storedPart, walkPosition, type Walk } from './walk.ts';

export interface SyncCoreDeps {
  client: StreamClient;
  warehouse: Warehouse;
  config: ResolvedConfig;
  logger: Logger;
  /** Pending cells past which a batch commits what it has and goes on (default COMMIT_MAX_CELLS; tests lower it). */
  commitMaxCells?: number;
  /** Cells every batch in flight may hold together (default: a CellBudget of IN_FLIGHT_MAX_CELLS; tests lower it). */
  cellBudget?: CellBudget;
}

export interface SyncCore {
  /** `runId` given: what planning spent (head probes) is recorded against that run. */
  planPartitions(input: PlanInput): Promise<PartitionSpec[]>;
  syncBatch(input: BatchInput): Promise<BatchResult>;
  readCheckpoint(partitionId: string): Promise<CheckpointView | undefined>;
}

/**
 * The sync core: plans partitions from the config and walks them a batch at a time. Each page's items
 * are read once into the column vectors of its tables (the stream's column readers), and the pages of
 * a batch are committed with the partition's checkpoint in one transaction, so the checkpoint never
 * runs ahead of (or behind) the rows. QuotaExhaustedError and other client errors
 * propagate; an expired page token restarts the walk from its durable cursor.
 */
export function createSyncCore(deps: SyncCoreDeps): SyncCore {
  const { client, warehouse, config, logger } = deps;
  const commitMaxCells = deps.commitMaxCells ?? COMMIT_MAX_CELLS;
  const budget = deps.cellBudget ?? new CellBudget(IN_FLIGHT_MAX_CELLS);

  async function planPartitions(input: PlanInput): Promise<PartitionSpec[]> {
    const names = (input.streams ?? config.streams).filter((s) => config.streams.includes(s));
    const selected = names.map(streamOf).filter((s) => !input.discovered || s.takesDiscovered);
    const plan: Discovered = { streams: names };
    // Shards: the pipeline passes the node ids every shard stored; one warehouse reads its own.
    if (input.discovered) plan.validatorNodeIds = new Map(Object.entries(input.validatorNodeIds ?? (await storedValidatorNodeIds(warehouse))));
    if (input.discovered !== undefined) plan.wave = input.discovered ? 'derived' : 'configured';
    if (input.mode) plan.mode = input.mode;
    const meter = newMeter();
    if (input.discovered === false && input.runId !== undefined && listsChains(config, selected)) {
      await discoverChains(client, warehouse, config, input, logger);
    }
    if (selected.some((s) => s.needsChainHeads) && config.evmChains.length > 0) plan.chainHeads = await chainHeads(client, config, meter);
    if (input.runId !== undefined && meter.requests > 0) {
      const probe = CHAIN_HEAD_PROBE;
      await recordPlanCost(warehouse, {
        runId: input.runId,
        mode: input.mode ?? 'sync',
        snapshotAt: input.snapshotAt ?? 0,
        cost: { ...meter, items: 0, weight: probe.weight, pageLimit: probe.maxPageSize },
      });
    }
    const seen = new Set<string>();
    const out: PartitionSpec[] = [];
    for (const stream of selected) {
      // Derived partitions only come from streams that take discovered values. In the derived wave a
      // stream may first read what the first wave stored (StreamDecl.derive); its answer is its own.
      const derived = input.discovered && stream.derive ? await stream.derive({ warehouse, config, plan, runId: input.runId }) : undefined;
      for (const p of stream.partitions(config, derived === undefined ? plan : { ...plan, derived })) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        out.push(p);
      }
    }
    return out;
  }

  async function syncBatch(input: BatchInput): Promise<BatchResult> {
    const { partition } = input;
    const stream = streamOf(partition.stream);
    const mode = stream.modeOf?.(partition) ?? stream.mode;
    const log = logger.child({ partition: partition.id, stream: partition.stream });
    const previous = await warehouse.readCheckpoint(partition.id);
    const rangeStart = Number(partition.params.startBlock ?? partition.params.startTimestamp ?? 0);
    const start = startWalk(mode, previous, input, rangeStart, stream.cursor);
    if (start.kind === 'done') return { done: true, pages: 0, rows: 0, checkpoint: previous! };

    // Requests of this partition share the client's quota fairly with the other partitions in flight.
    // The meter counts every attempt of this batch (retries and 429s too); a commit moves it into the
    // run record and empties it, so a failed batch's catch (below) records only what no commit took.
    const meter = newMeter();
    const scoped: StreamClient = { call: (endpoint, params) => client.call(endpoint, params, { partition: partition.id, meter }) };
    const costOf = (items: number, cut: { pages: number; items: number }): RunCost => ({ ...meter, items, weight: stream.walks.weight, pageLimit: stream.walks.maxPageSize ?? null, cutPages: cut.pages, cutItems: cut.items });
    let walk: Walk = start.walk;
    // Nothing of this partition can have changed (the stream knows from its cursor): the walk is
    // complete without a request, recorded as a run of no pages so the run's cost shows it.
    if (input.mode === 'sync' && walk.pageToken === null && stream.unchanged?.(partition, walk.cursor) === true) {
      const settled = advanceWalk(mode, walk, [], undefined, [], stream.cursor).walk;
      const checkpoint = { partitionId: partition.id, stream: partition.stream, pageToken: null, cursor: { ...settled.cursor }, rows: previous?.rows ?? 0, pages: previous?.pages ?? 0, complete: true };
      await warehouse.commitBatch([], checkpoint, { runId: input.runId, mode: input.mode, snapshotAt: walk.cursor.snapshotAt ?? input.snapshotAt, pages: 0, rows: 0, done: true, cost: costOf(0, { pages: 0, items: 0 }) });
      log.debug('nothing can have changed; walk complete without a request');
      return { done: true, pages: 0, rows: 0, checkpoint: (await warehouse.readCheckpoint(partition.id))! };
    }
    let totalRows = previous?.rows ?? 0;
    let totalPages = previous?.pages ?? 0;
    let pages = 0;
    let rows = 0;
    // Items this batch gave to the warehouse (rows counts what the pages held).
    let written = 0;
    const contract = config.schemaContracts?.[partition.stream] ?? 'evolve';
    const ctx = { partition, runId: input.runId, snapshotAt: walk.cursor.snapshotAt ?? input.snapshotAt, contract };
    // The stream's baseline of top-level fields (missing_field drift), read once per batch from the warehouse's cache.
    const baseline = await warehouse.streamFields(partition.id);
    // Pages fetched since the last commit. They are committed together, with the walk state after the
    // last of them, in ONE transaction: the per-commit cost is paid once per batch, not per page, and a
    // crash before the commit loses only fetched pages that the next attempt fetches again.
    let pending = emptyPending(stream.tables);
    // Cells of `pending` this batch counts in the worker's budget (released once they are committed).
    let held = 0;
    // A walk of a sameWalks stream (StreamDecl.sameWalks) chains a digest of its pages' items in its
    // cursor. A sync walk that starts in this batch, right after a complete walk, holds its pages
    // unextracted (`deferred`) while it may list what that walk listed: if it completes in this batch
    // with the same digest, its commit writes no row, only the checkpoint, the run and the finished
    // walk. Any commit before that (a full batch, a restart, an error) extracts them first.
    const same = mode === 'snapshot-replace' && stream.sameWalks === true;
    const lastDigest = walk.cursor.lastDigest;
    // What else shapes the rows: the partition's params, the contract, the tables' columns (a release that adds one merges once).
    const seed = same ? createHash('sha1').update(JSON.stringify([partition.params, contract, stream.tables.map((t) => t.columns.map((c) => `${c.name} ${c.type}`))])).digest('base64') : '';
    let deferring = same && input.mode === 'sync' && lastDigest !== undefined && walk.pageToken === null && !walk.cursor.walkPages;
    let deferred: DrivenPage[] = [];
    let deferredItems = 0;
    const extractDeferred = () => {
      for (const page of deferred) written += page.extract(ctx, pending.byTable, undefined).items;
      deferred = [];
      deferring = false;
    };
    // Commits the pending pages with the walk state after the last of them. snapshot-replace walks
    // count their rows in the durable cursor, and the commit that finishes one records the walk
    // (found rows or not) in the same transaction: a half-walk is never recorded, an empty one is.
    const flush = async (complete: boolean) => {
      if (pending.pages === 0) return;
      const unchanged = complete && deferring && walk.cursor.digest === lastDigest;
      if (!unchanged) extractDeferred();
      // The baseline counts once a walk of the partition finished (WALKED): later syncs read only what is new.
      if (complete && !baseline.has(WALKED)) {
        baseline.set(WALKED, { items: 0, always: true });
        pending.fields.set(WALKED, { items: 0, always: true });
      }
      totalRows += pending.rows;
      totalPages += pending.pages;
      const cursor = mode === 'snapshot-replace' ? countWalk(walk.cursor, pending.rows, pending.pages) : { ...walk.cursor };
      const finished =
        mode === 'snapshot-replace' && complete
          ? { snapshotAt: ctx.snapshotAt, runId: input.runId, params: partition.params, rows: cursor.walkRows ?? 0, pages: cursor.walkPages ?? 0 }
          : undefined;
      await warehouse.commitBatch(
        // Keys listed twice (on two pages of this batch, or by two batches of a group commit) are deduplicated once, at the commit.
        // A walk that listed what the last one did gives no table: its versions are open already, and nothing closes.
        unchanged ? [] : [...pending.byTable.values()],
        { partitionId: partition.id, stream: partition.stream, pageToken: walk.pageToken, cursor: { ...cursor }, rows: totalRows, pages: totalPages, complete },
        {
          runId: input.runId,
          mode: input.mode,
          snapshotAt: ctx.snapshotAt,
          pages: pending.pages,
          rows: pending.rows,
          done: complete,
          cost: costOf(pending.items, pending.cut),
          ...(pending.drift.size > 0 ? { drift: [...pending.drift.values()] } : {}),
          ...(pending.fields.size > 0 ? { fields: pending.fields } : {}),
        },
        finished,
      );
      Object.assign(meter, newMeter());
      budget.add(-held);
      held = 0;
      walk = { pageToken: walk.pageToken, cursor };
      pages += pending.pages;
      rows += pending.rows;
      pending = emptyPending(stream.tables);
    };
    const pageSize = pageSizeFor(stream, config);
    const label = { method: stream.walks.method, target: `${stream.walks.name} (${partition.id})` };
    const maxPages = Math.max(1, input.maxPages);
    // One pagination loop (activities/api/paginate.ts) per walk start: it stops a server that repeats
    // a token. A rejected token starts a new loop from the walk's durable cursor.
    const fetchPage = (pageToken: string | undefined) => stream.fetch(scoped, partition, { pageToken: pageToken ?? null, from: walk.cursor.from, pageSize, cursor: walk.cursor });
    let walker = paginate(fetchPage, { startToken: walk.pageToken ?? undefined, label });
    try {
      while (pages + pending.pages < maxPages) {
        // The worker holds its budget of uncommitted cells: commit what this batch has, then wait for room.
        if (budget.spent) {
          await flush(false);
          await budget.room();
        }
        let step;
        try {
          step = await walker.next();
        } catch (error) {
          // A rejected token (expired or unknown): go back to the start of this walk (its cursor is
          // durable); upserts absorb the overlap. Once per position: rejected again where the walk
          // restarted last, the 400 is not about a stale token and fails as it is (non-retryable).
          if (error instanceof InvalidPageTokenError && mayRestartWalk(walk)) {
            log.warn({ err: error.message, position: walkPosition(walk) }, 'page token rejected; restarting the walk from its cursor');
            await flush(false);
            walk = restartWalk(walk);
            walker = paginate(fetchPage, { label });
            continue;
          }
          // Keep what this batch already fetched before failing (a repeated token included): its walk state is consistent.
          await flush(false);
          // A mapped field of another type: never written wrong or NULL; the partition stops, named, and the drift is recorded.
          if (error instanceof ResponseValidationError && error.types) {
            const stop = typeChangeStop(stream, partition, error.path, error.types);
            await warehouse.recordDrift(partition.stream, input.runId, [stop.drift]);
            log.warn({ err: stop.message }, 'type change: partition stopped');
            throw stop;
          }
          throw error;
        }
        if (step.done) break;
        const page = step.value;
        const drift = page.drift();
        if (contract === 'freeze') {
          const first = drift.find((d) => d.kind === 'new_field');
          if (first) {
            await walker.return(undefined);
            await flush(false);
            const stop = frozenStop(stream, partition, first);
            await warehouse.recordDrift(partition.stream, input.runId, drift);
            log.warn({ err: stop.message }, 'contract freeze: partition stopped');
            throw stop;
          }
        }
        mergeDrift(pending.drift, drift);
        notePresence(page.keys(), baseline, pending, declared(stream), input.mode === 'sync' && baseline.has(WALKED));
        // The chain starts only at a walk's first page (a walk resumed from a cursor without one, written
        // by an earlier release, ends without a digest: a digest of its later pages would not describe it).
        if (same && (walk.cursor.digest !== undefined || walk.pageToken === null)) walk = { ...walk, cursor: { ...walk.cursor, digest: chainDigest(walk.cursor.digest ?? seed, page.digest()) } };
        if (deferring) {
          deferred.push(page);
          deferredItems += page.items;
          pending.rows += page.held(ctx);
          if (deferredItems > DEFER_MAX_ITEMS) extractDeferred();
        } else {
          // Only the items no earlier walk stored are written (walk.ts, storedPart); the run still counts the page's rows whole.
          const extracted = page.extract(ctx, pending.byTable, input.mode === 'sync' ? storedPart(mode, walk.cursor) : undefined);
          pending.rows += extracted.held;
          written += extracted.items;
        }
        pending.pages += 1;
        pending.items += page.items;
        if (page.cut === true) {
          pending.cut.pages += 1;
          pending.cut.items += page.items;
        }
        walk = { ...walk, cursor: foldMarks(walk.cursor, page.newest, page.marks, stream.cursor) };
        const next = advanceWalk(mode, walk, page.orderKeys(), page.nextPageToken, page.identities(), stream.cursor, mode === 'descending-until-known' || mode === 'range' ? page.keyed() : undefined);
        walk = next.walk;
        if (next.complete) {
          await walker.return(undefined);
          await flush(true);
          log.debug({ pages, rows, written }, 'walk complete');
          return { done: true, pages, rows, checkpoint: (await warehouse.readCheckpoint(partition.id))! };
        }
        // A batch of wide or large pages (5,000 holders a page) commits as it goes, so no commit
        // outgrows the warehouse's memory; the walk state after this page is the checkpoint.
        const cells = cellsOf({ tables: [...pending.byTable.values()] });
        budget.add(cells - held);
        held = cells;
        if (cells >= commitMaxCells) await flush(false);
      }
      await walker.return(undefined);
      await flush(false);
      return { done: false, pages, rows, checkpoint: (await warehouse.readCheckpoint(partition.id))! };
    } catch (error) {
      budget.add(-held);
      held = 0;
      // The server charged for the requests of pages that were not committed: the run's accounting
      // keeps them (quota spent on retries), so a stream's CU matches what the service billed.
      if (meter.requests > 0) {
        const run = { runId: input.runId, mode: input.mode, snapshotAt: ctx.snapshotAt, pages: 0, rows: 0, done: false, cost: costOf(0, { pages: 0, items: 0 }) };
        await recordRunCost(warehouse, partition.id, partition.stream, run).catch((e: unknown) => log.warn({ err: String(e) }, 'could not record the requests of a failed batch'));
      }
      throw error;
    }
  }

  return { planPartitions, syncBatch, readCheckpoint: (id) => warehouse.readCheckpoint(id) };
}

/** Items a sync walk holds unextracted while it may repeat the last walk; past it they are extracted (memory). */
const DEFER_MAX_ITEMS = 50_000;

/** The walk's digest after one more page: chained, so equal digests mean the same items on the same pages. */
function chainDigest(previous: string, page: string): string {
  return createHash('sha1').update(previous).update('\n').update(page).digest('base64');
}

interface PendingPages {
  pages: number;
  rows: number;
  /** API items the pages held (rows can be more: one item fills several tables). */
  items: number;
  /** Pages the server cut short (StreamPage.cut) and their items. */
  cut: { pages: number; items: number };
  byTable: Map<string, ColumnBatch>;
  /** Drift the pages showed, and top-level fields newly seen in every item of a page (recorded with the commit). */
  drift: Map<string, DriftSeen>;
  fields: Map<string, FieldPresence>;
}

function emptyPending(tables: readonly TableDef[]): PendingPages {
  return { pages: 0, rows: 0, items: 0, cut: { pages: 0, items: 0 }, byTable: emptyBatches(tables), drift: new Map(), fields: new Map() };
}

/** The baseline's mark that a walk of the partition finished (no field has an empty path). */
const WALKED = '';

/** Top-level fields the stream's item schema declares. */
function declared(stream: StreamDriver): ReadonlySet<string> {
  let names = declaredFields.get(stream);
  if (!names) declaredFields.set(stream, (names = new Set([...stream.fields().fields.values()].filter((f) => f.declared).map((f) => f.path))));
  return names;
}
const declaredFields = new WeakMap<StreamDriver, ReadonlySet<string>>();

/**
 * missing_field drift, defined simply and deterministically: a declared top-level field that every
 * one of at least BASELINE_ITEMS items of the partition sent (in earlier pages or runs), absent from
 * every item of a page a sync reads after a walk of the partition finished, is recorded missing
 * (once per such page). A field some item left
 * out is never in the baseline. Only syncs report it: they read the newest items, while a backfill
 * also reads history older than fields the service added later (blockTimestampMilliseconds). The baseline (`known`, the warehouse's copy plus this batch's changes) is
 * written with the batch; a settled field (counted far enough, or once left out) writes nothing.
 */
function notePresence(keys: { counts: ReadonlyMap<string, number>; items: number }, known: Map<string, FieldPresence>, pending: PendingPages, names: ReadonlySet<string>, sync: boolean): void {
  if (keys.items === 0) return;
  const missing: DriftSeen[] = [];
  for (const [path, f] of known) {
    if (path === WALKED) continue;
    if (sync && f.always && f.items >= BASELINE_ITEMS && !keys.counts.has(path)) missing.push({ kind: 'missing_field', path, count: 1, sample: null });
  }
  if (missing.length > 0) mergeDrift(pending.drift, missing);
  for (const path of names) {
    if (path === WALKED) continue;
    const n = keys.counts.get(path) ?? 0;
    const f = known.get(path);
    if (!f && n === 0) continue;
    const always = (f?.always ?? true) && n === keys.items;
    // A baseline field absent from the whole page stays in the baseline (the drift above says so).
    if (f && f.always && f.items >= BASELINE_ITEMS && n === 0) continue;
    if (f && f.always === always && (f.items >= COUNTED_ITEMS || !always)) continue;
    const next = { items: Math.min(COUNTED_ITEMS, (f?.items ?? 0) + keys.items), always };
    known.set(path, next);
    pending.fields.set(path, next);
  }
}
