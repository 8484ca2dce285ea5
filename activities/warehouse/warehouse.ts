import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBDataChunk, DuckDBInstance, listValue, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { CheckpointView } from '../../common/activityTypes.ts';
import type { StreamName } from '../../common/streamNames.ts';
import { applySchema } from './applySchema.ts';
import { readSchemaVersion, refuseNewerWarehouse } from './schemaVersion.ts';
import { concatUnique, type ColumnBatch } from './columnBatch.ts';
import { groupTables, takeGroup } from './commitGroup.ts';
import { profileCommit, profiled, profileRows, profileStatements } from './commitProfile.ts';
import { checkpointsStatement, distinctPartitionRuns, fieldsStatement, runRecordsStatement, walksStatement, type BoundStatement } from './commitRecords.ts';
import { ident } from './identifier.ts';
import { dayOnlyLakeKey, MARK_INSERT } from './lakeKeys.ts';
import { splitStatements, tableMergeStatements } from './mergeSql.ts';
import { mergeVersions, SeenKeys } from './versions.ts';
import { SerialQueue } from './serialQueue.ts';
import { DUCKDB_SIZE, duckdbSizeBytes } from '../../common/duckdbSize.ts';
import { sqlFile } from './sqlFile.ts';
import { stagingDuckDBType, stagingSqlType } from './stagingTypes.ts';
import type { CellValue, TableDef } from './tableDef.ts';
import type { DriftSeen, FieldPresence } from './driftRecord.ts';
import type { CheckpointWrite, RunCost, RunRecord, SnapshotWalkRecord } from './commitInput.ts';

export type { CheckpointWrite, RunCost, RunRecord, SnapshotWalkRecord } from './commitInput.ts';

/** Steps of a commit where a fault can be injected (tests) or a stage timed (bench) — the commit must be all-or-nothing across them. */
export type CommitStep =
  | 'before-begin'
  | 'after-begin'
  /** A table's batches are one deduplicated batch; then appended to its stage; then merged (after-table). */
  | `after-batch:${string}`
  | `after-append:${string}`
  | `after-table:${string}`
  | 'before-checkpoint'
  | 'before-commit'
  | 'after-commit';
export type FaultHook = (step: CommitStep) => void | Promise<void>;

/** One table's rows of a batch, as column vectors (activities/warehouse/columnBatch.ts). */
export type TableBatch = ColumnBatch;

interface PendingCommit {
  tables: TableBatch[];
  checkpoint: CheckpointWrite;
  run: RunRecord | undefined;
  walk: SnapshotWalkRecord | undefined;
  /** false: a piece of a batch committed in pieces (commitInPieces): rows only, its records go with the last piece. */
  records?: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A batch that does not fit the warehouse's buffer limit even in pieces (commitInPieces): its
 * partition stops with this one line, naming the setting to raise, instead of being retried forever.
 * Non-retryable (kind warehouse-memory): the same rows fail the same way under the same limit.
 */
export class CommitMemoryError extends Error {
  override name = 'CommitMemoryError';
  readonly kind = 'warehouse-memory';
}

/** A piece of at most this many rows is not split again (commitInPieces). */
const MIN_PIECE_ROWS = 64;

export interface OpenOptions {
  faultHook?: FaultHook;
  /**
   * DuckDB's buffer-manager limit (e.g. '256MB'); DuckDB's own default is 80% of RAM, which lets
   * cached table data grow with the warehouse. Merges and exports spill to disk past it.
   */
  memoryLimit?: string;
  /** DuckDB's checkpoint_threshold: WAL size past which a commit checkpoints (default: defaultCheckpointThreshold of the memory limit). */
  checkpointThreshold?: string;
  /** DuckDB's threads (its `threads` setting, config `warehouse.threads`); absent: DEFAULT_THREADS. */
  threads?: number;
  /** Called after the file was opened again following a fatal DuckDB error (the runtime logs it). */
  onReopen?: (cause: unknown) => void;
  /** Called when a commit ran out of buffer memory and is retried after a checkpoint (`how`: 'in pieces' when a batch is then committed in pieces). */
  onMemoryRelief?: (cause: unknown, how?: string) => void;
  /** Called when a checkpoint the warehouse runs itself after a write failed (not fatally; the write stands). */
  onCheckpointError?: (cause: unknown) => void;
  /** Connections lent (exports) after which a run's end opens the instance again (default RENEW_AFTER_LENDS; tests: 1). */
  renewAfterLends?: number;
}

/**
 * A run's end opens the DuckDB instance again once this many connections were lent since it opened
 * (an export takes one a night; Warehouse.renew): each attach of the lake leaves about 2 MB in the
 * worker, and a new instance costs the next night about 0.3 CPU s (its extensions loaded and its
 * tables read again), so every 8th exporting night holds the growth under about 16 MB for 0.04 CPU s
 * a night (bench/README.md, "Nights: the instance opened again").
 */
export const RENEW_AFTER_LENDS = 8;

/**
 * The default buffer limit (config `warehouse.memoryLimit`). A commit's memory has a fixed part that
 * does not follow its rows: every column a statement reads or writes pins a 256 KiB block per thread
 * (a P-chain batch writes five tables of up to 45 columns, stage and table), so a pn_transactions
 * batch of 85 rows did not fit 16 MB even committed table by table. At 64 MB the demo's world ran
 * commits out of memory 19 times a backfill (each a rollback, a checkpoint and a retry); at 128 MB
 * none, at 1x and 10x the demo's history (`npm run bench:scale`), for about 100 MB more worker RSS
 * and a third less CPU per row. What grows with the history (a join built over a stored table) is
 * kept out of the commit by test/warehouse/commitPlans.test.ts.
 */
export const DEFAULT_MEMORY_LIMIT = '128MB';

/**
 * The WAL size past which DuckDB checkpoints, unless config `warehouse.checkpointThreshold` names
 * one: a quarter of the buffer limit, and never less than DuckDB's own 16 MiB (a 64MB limit
 * gets). A checkpoint rewrites each table's open row group, so fewer checkpoints cost less CPU
 * (bench:write-path's P-chain list, 105 pages and 33 MB of WAL: 16MB checkpointed once mid-walk and
 * spent 1.3-1.6 s in COMMIT, 64MB none and 0.5-0.6 s, the final checkpoint at close costing about
 * the same), but rows committed since the last checkpoint stay in DuckDB's buffer uncompressed,
 * about 1.6x their WAL size (51 MB at 25 MB of WAL, 87 MB at 56 MB): at a 64MB limit a 64MB
 * threshold made commits run out of buffer memory 8 times in part of one long-history bench:quota
 * run (3 in a whole run at 16MB). So the threshold follows the limit, and a worker given more memory
 * checkpoints less often.
 */
export function defaultCheckpointThreshold(memoryLimit: string): string {
  return `${Math.max(DUCKDB_CHECKPOINT_KIB, Math.floor(duckdbSizeBytes(memoryLimit) / 4 / 1024))}KiB`;
}

/**
 * DuckDB's buffer limit while the warehouse creates or migrates its schema at open, and while an
 * export runs (activities/lake/export.ts); its checkpoints now use checkpointMemoryLimit. History: a
 * checkpoint pins the tables' uncheckpointed tails and the blocks it writes; rows committed since the
 * last checkpoint hold a buffer block per column of every table they touched (about 100 MB of
 * buffer and temp file for a night of this catalog, whatever its row count), so under the 64MB sync
 * limit DuckDB's own checkpoint at a commit failed FATAL ("failed to pin block ... 60.9 MiB/61.0 MiB
 * used", measured on a bench:nights warehouse at its second night; 80MB was enough for that file). A
 * fatal error invalidates the instance, the reopened file replays the same WAL, and the next commit's
 * checkpoint failed again: the nights stalled. So the warehouse checkpoints itself, before DuckDB
 * would, under a limit with room (checkpointMemoryLimit), and puts the sync limit back afterwards.
 */
export const MAINTENANCE_MEMORY_LIMIT = '256MB';

/**
 * The buffer limit of the warehouse's own checkpoints: the sync limit from CHECKPOINT_MEMORY_FLOOR up,
 * MAINTENANCE_MEMORY_LIMIT below it. A checkpoint's memory follows the tail it writes (bounded by the
 * checkpoint threshold, which follows the sync limit) and the columns that tail touched, not the
 * stored history; raising the limit to MAINTENANCE_MEMORY_LIMIT for each checkpoint let DuckDB fill
 * 256 MB with cached blocks, the worker's peak RSS on a large backfill (`bench:scale --trace`: 239 MB
 * of buffer at a 5x world's peak, 158 MB of it the uncheckpointed tail).
 */
export function checkpointMemoryLimit(memoryLimit: string): string {
  return duckdbSizeBytes(memoryLimit) >= duckdbSizeBytes(CHECKPOINT_MEMORY_FLOOR) ? memoryLimit : MAINTENANCE_MEMORY_LIMIT;
}

/**
 * A sync limit from which checkpoints run under it (the default, 128MB, and above); below it they run
 * under MAINTENANCE_MEMORY_LIMIT as before: at 16MB a relief checkpoint under 128MB never finished
 * (test/warehouse/commitMemory.test.ts timed out), and a night's tail failed fatally at 64MB.
 */
const CHECKPOINT_MEMORY_FLOOR = '128MB';

/** The warehouse checkpoints itself at this share of the threshold, before a commit crosses DuckDB's own. */
const OWN_CHECKPOINT_SHARE = 0.75;

/**
 * DuckDB's threads unless config `warehouse.threads` names more (DuckDB's own default is one per
 * core). The worker's statements are small (a batch's merge, a commit's records), one at a time on
 * the write connection, while Node fetches, parses and validates the next pages on another core;
 * DuckDB splits each statement into tasks over all its threads, and the hand-offs cost more CPU
 * than the parallel part saves. On the 2-core bench machine, one window: the peer world's backfill
 * 0.84x the CLI's CPU per item at 1.09x the items/s (`npm run bench:release` against the build
 * with DuckDB's default), an idle night 1.9 against 2.5 CPU s of worker and server
 * (`bench/nightsNoop.ts`, three nights each, two rounds). A large export on a machine with many
 * cores is where more threads shorten the wall time (docs/operations.md "Threads").
 */
export const DEFAULT_THREADS = 1;

/** DuckDB's own checkpoint_threshold (16 MiB): the default never checkpoints more often than DuckDB would. */
const DUCKDB_CHECKPOINT_KIB = 16 * 1024;

const CHUNK_ROWS = 2048;

/**
 * One DuckDB file, owned by one process. Writes go through one connection, one transaction at a time
 * (SerialQueue); reads use a second connection and so only ever see committed data.
 */
export class Warehouse {
  /** Injected by tests to abort a commit at a given step. */
  faultHook: FaultHook | undefined;
  private readonly queue = new SerialQueue();
  private readonly staged = new Set<string>();
  private readonly prepared = new Map<string, DuckDBPreparedStatement>();
  /** Batches waiting for the next commit (group commit). */
  private readonly waiting: PendingCommit[] = [];
  /**
   * Every partition's checkpoint as last committed. This process is the file's only writer (DuckDB
   * locks it), so the copy is exact: it is loaded once and updated after each COMMIT, and a batch
   * reads its checkpoint without a query.
   */
  private checkpoints: Promise<Map<string, CheckpointView>> | undefined;
  /** Whether commits mark what they change (startChangeMarks). */
  private marking = true;

  private constructor(
    readonly path: string,
    private instance: DuckDBInstance,
    private writer: DuckDBConnection,
    private reader: DuckDBConnection,
    /** Tables created with a PRIMARY KEY constraint by an earlier version (merged with DuckDB's upsert). */
    private readonly constrained: ReadonlySet<string>,
    private readonly options: OpenOptions,
  ) {
    this.faultHook = options.faultHook;
  }

  /** DuckDB's buffer limit for syncing (exports raise it while they run). */
  get memoryLimit(): string {
    return this.options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  }

  /** The schema version the file records (activities/warehouse/schemaVersion.ts). */
  async schemaVersion(): Promise<number | undefined> {
    return this.use(() => readSchemaVersion(this.reader));
  }

  static async open(path: string, options: OpenOptions = {}): Promise<Warehouse> {
    if (options.memoryLimit !== undefined && !DUCKDB_SIZE.test(options.memoryLimit)) {
      throw new Error(`warehouse memory limit ${JSON.stringify(options.memoryLimit)}: expected a size such as '64MB' or '1GB'`);
    }
    if (options.checkpointThreshold !== undefined && !DUCKDB_SIZE.test(options.checkpointThreshold)) {
      throw new Error(`warehouse checkpoint threshold ${JSON.stringify(options.checkpointThreshold)}: expected a size such as '64MB' or '1GB'`);
    }
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    // A file written by a newer glacier-etl is refused before it is opened for writing (left untouched).
    await refuseNewerWarehouse(path);
    const { instance, writer, reader } = await openFile(path, options);
    try {
      // Creating or migrating the schema is maintenance: it runs with room, whatever the sync limit.
      const limit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
      if (duckdbSizeBytes(limit) < duckdbSizeBytes(MAINTENANCE_MEMORY_LIMIT)) await writer.run(`SET memory_limit = '${MAINTENANCE_MEMORY_LIMIT}'`);
      if ((await applySchema(writer, path)).length) await writer.run(sqlFile('ops/forgetLakeLayouts.sql'));
      await writer.run(`SET memory_limit = '${limit}'`);
    } catch (error) {
      for (const c of [writer, reader]) c.closeSync();
      instance.closeSync();
      throw error;
    }
    const constrained = (await reader.runAndReadAll(sqlFile('ops/constrainedTables.sql'))).getRowObjectsJS().map((r) => String(r.table_name));
    const warehouse = new Warehouse(path, instance, writer, reader, new Set(constrained), options);
    warehouse.marking = (await reader.runAndReadAll(sqlFile('ops/changeMarks.sql'))).getRowObjectsJS()[0].marks !== 'off';
    // A WAL replayed at open (a crash, a fatal error) is checkpointed now, with room.
    await warehouse.withWriter(async () => undefined);
    return warehouse;
  }

  private async fault(step: CommitStep): Promise<void> {
    if (this.faultHook) await this.faultHook(step);
  }

  /**
   * After a fatal DuckDB error (one that invalidates the database, such as a checkpoint that could
   * not pin a block under the memory limit) every later statement fails until the database is
   * opened again. The file is consistent (committed work is in it or its WAL, which opening
   * replays), so the warehouse closes the instance and opens the file again; what was committed is
   * read back, since a failed COMMIT may still have reached the WAL. Runs on the write queue. If the
   * file cannot be opened (it is gone, the disk is full...), the error is thrown and the next write
   * tries again first (ensureOpen).
   */
  private async reopen(cause: unknown): Promise<void> {
    this.closeHandles();
    this.lost = cause;
    await this.openAgain();
    this.reopened += 1;
    this.options.onReopen?.(cause);
    // The reopened file replayed its WAL: checkpoint it now, with room, rather than at the next
    // commit under the sync limit (where it failed). Once: any failure, a second fatal one included,
    // is left to the commit that meets it.
    await this.checkpointWithRoom({ reopenOnFatal: false }).catch(() => undefined);
  }

  /** Closes the connections and the instance; one that refuses (an invalidated database) is left to the open that replaces it. */
  private closeHandles(): void {
    for (const close of [() => this.writer.closeSync(), () => this.reader.closeSync(), () => this.instance.closeSync()]) {
      try {
        close();
      } catch {
        // an invalidated database may refuse; the next open replaces it
      }
    }
  }

  /** A new instance and connections on the file; what was cached from the old ones is read again. */
  private async openAgain(): Promise<void> {
    ({ instance: this.instance, writer: this.writer, reader: this.reader } = await openFile(this.path, this.options));
    this.lost = undefined;
    this.lent = 0;
    this.staged.clear();
    this.prepared.clear();
    this.checkpoints = undefined;
    this.fields = undefined;
  }

  /** Uses of the instance off the write queue in flight (reads, scrapes, lent connections not yet closed): renew waits for none. */
  private users = 0;
  /** Set while renew replaces the instance: a new use waits for it. */
  private renewing: Promise<void> | undefined;
  /** Connections lent since the instance was opened (an export attaches the lake on one): what renew frees. */
  private lent = 0;

  /** Runs `fn` as a use of the instance off the write queue (renew never replaces the instance under it). */
  private async use<T>(fn: () => Promise<T>): Promise<T> {
    while (this.renewing) await this.renewing;
    this.users += 1;
    try {
      return await fn();
    } finally {
      this.users -= 1;
    }
  }

  /**
   * Closes the DuckDB instance and opens the file again once RENEW_AFTER_LENDS connections were lent
   * since it opened and nothing uses it now (else it does nothing: a later run's end will). On the
   * write queue, after a checkpoint (settle). What an attach of the lake leaves in the instance
   * (DuckLake's catalog entries and caches, about 0.8 MB of native heap an attach, not freed by
   * DETACH in DuckDB 1.5.5) goes with it, so a worker's memory stays flat over the nights.
   */
  private async renew(): Promise<void> {
    if (this.lent < (this.options.renewAfterLends ?? RENEW_AFTER_LENDS) || this.lost !== undefined || this.users > 0 || this.path === ':memory:') return;
    let done = () => {};
    this.renewing = new Promise((resolve) => (done = resolve));
    try {
      this.closeHandles();
      await this.openAgain();
      this.renewed += 1;
    } catch (error) {
      this.lost = error;
      throw error;
    } finally {
      this.renewing = undefined;
      done();
    }
  }

  /** Times renew replaced the instance (tests, logs). */
  renewed = 0;

  /**
   * A commit that ran out of buffer memory (rolled back already) is retried once after a CHECKPOINT.
   * Rows committed since the last checkpoint stay in the buffer pool (IN_MEMORY_TABLE, spilling to
   * temp files) until a checkpoint writes them to the file: measured on the long-history quota bench
   * at the 64 MB default, 14 MB of WAL held 37 MB of buffer and 75 MB of temp storage, and a merge
   * could not pin a block; after the checkpoint both were 0. DuckDB's own checkpoint waits for 16 MB
   * of WAL; checkpointing earlier on every commit costs the write path CPU, so it happens only when
   * needed. A checkpoint that fails fatally reopens the file (the commit then fails and its activity
   * retries from the checkpoint the file holds).
   */
  private async relieveMemory(cause: unknown): Promise<void> {
    this.relieved += 1;
    this.options.onMemoryRelief?.(cause);
    const reopened = this.reopened;
    await this.checkpointWithRoom();
    // The file was opened again: the commit fails (its activity retries it on the fresh instance).
    if (this.reopened !== reopened) throw cause;
  }

  /** Commits retried after a checkpoint freed buffer memory (tests, logs). */
  relieved = 0;

  /** Times the file was opened again after a fatal DuckDB error (tests, logs). */
  reopened = 0;

  /** The fatal error after which the file could not be opened again (its handles are closed), else undefined. */
  private lost: unknown;

  /** Opens the file again if a reopen after a fatal error failed; throws what opening it throws. Runs on the write queue. */
  private async ensureOpen(): Promise<void> {
    if (this.lost !== undefined) await this.reopen(this.lost);
  }

  /** Checkpoints the warehouse ran itself (checkpointMemoryLimit; tests, logs). */
  checkpointed = 0;

  /** Buffer limits raised above the sync limit and not yet released (raiseMemory). */
  private readonly raised: string[] = [];

  /**
   * Raises DuckDB's buffer limit (instance-wide) to `limit` until the returned release runs; with
   * several raises (an export and a checkpoint at once) the largest holds, and the last release puts
   * back the sync limit. Sizes are checked before they reach SQL text.
   */
  async raiseMemory(limit: string): Promise<() => Promise<void>> {
    if (!DUCKDB_SIZE.test(limit)) throw new Error(`warehouse memory limit ${JSON.stringify(limit)}: expected a size such as '64MB' or '1GB'`);
    this.raised.push(limit);
    await this.applyMemoryLimit();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.raised.splice(this.raised.indexOf(limit), 1);
      await this.applyMemoryLimit();
    };
  }

  /** The buffer limit in force: the sync limit, or the largest raise not yet released. */
  private get limitInForce(): string {
    return [this.memoryLimit, ...this.raised].reduce((a, b) => (duckdbSizeBytes(b) > duckdbSizeBytes(a) ? b : a));
  }

  private applyMemoryLimit(): Promise<void> {
    return this.use(async () => {
      const connection = await this.instance.connect();
      try {
        await connection.run(`SET memory_limit = '${this.limitInForce}'`);
      } finally {
        connection.closeSync();
      }
    });
  }

  /**
   * DuckDB's buffer use now, by tag (duckdb_memory(): BASE_TABLE for blocks read from the file,
   * IN_MEMORY_TABLE for rows committed since the last checkpoint, hash tables, ...), the limit in
   * force and the WAL's size: what the worker's /metrics reports. A fresh connection, so a scrape
   * never waits on a commit.
   */
  memoryUse(): Promise<{ limitBytes: number; walBytes: number; tags: { tag: string; bytes: number; temporaryBytes: number }[] }> {
    return this.use(async () => {
      const connection = await this.instance.connect();
      try {
        const rows = (await connection.runAndReadAll('SELECT tag, memory_usage_bytes AS bytes, temporary_storage_bytes AS temporary FROM duckdb_memory()')).getRowObjectsJS();
        return { limitBytes: duckdbSizeBytes(this.limitInForce), walBytes: this.walBytes(), tags: rows.map((r) => ({ tag: String(r.tag), bytes: Number(r.bytes), temporaryBytes: Number(r.temporary) })) };
      } finally {
        connection.closeSync();
      }
    });
  }

  /** The WAL's size in bytes (0 for an in-memory warehouse or no WAL). */
  walBytes(): number {
    if (this.path === ':memory:') return 0;
    return statSync(`${this.path}.wal`, { throwIfNoEntry: false })?.size ?? 0;
  }

  /**
   * Checkpoints under checkpointMemoryLimit when the WAL has reached OWN_CHECKPOINT_SHARE of the
   * threshold (or at all, with `always`), so DuckDB's own checkpoint at a commit, under the sync limit,
   * rarely has anything to do. Runs on the write queue. A fatal failure opens the file again.
   */
  private async checkpointIfDue(always = false): Promise<void> {
    const wal = this.walBytes();
    if (wal === 0 || (!always && wal < OWN_CHECKPOINT_SHARE * duckdbSizeBytes(this.threshold))) return;
    await this.checkpointWithRoom();
  }

  private async checkpointWithRoom({ reopenOnFatal = true } = {}): Promise<void> {
    try {
      await this.withRoom(() => profiled('checkpointWithRoom', () => this.writer.run('CHECKPOINT')));
      this.checkpointed += 1;
    } catch (error) {
      if (!reopenOnFatal || !isFatal(error)) throw error;
      this.raised.length = 0; // the invalidated instance goes with its settings
      await this.reopen(error);
    }
  }

  /**
   * Runs fn under checkpointMemoryLimit when that is above the sync limit (below 128MB; at the default
   * both are the same and nothing is raised), putting the limit back afterwards. A failure to put it
   * back is not fn's (an invalidated instance refuses it; the next raise or open sets it again).
   */
  private async withRoom<T>(fn: () => Promise<T>): Promise<T> {
    const room = checkpointMemoryLimit(this.memoryLimit);
    if (duckdbSizeBytes(room) <= duckdbSizeBytes(this.memoryLimit)) return fn();
    const release = await this.raiseMemory(room);
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  private get threshold(): string {
    return this.options.checkpointThreshold ?? defaultCheckpointThreshold(this.memoryLimit);
  }

  private async stageTable(def: TableDef): Promise<string> {
    const stage = `_stage_${def.name}`;
    if (!this.staged.has(stage)) {
      const cols = def.columns.map((c) => `${ident(c.name)} ${stagingSqlType(c.type)}`).join(', ');
      await this.writer.run(`CREATE OR REPLACE TEMP TABLE ${ident(stage)} (${cols})`);
      this.staged.add(stage);
    }
    return stage;
  }

  private async appendColumns(def: TableDef, stage: string, values: CellValue[][], rows: number): Promise<void> {
    const types = def.columns.map((c) => stagingDuckDBType(c.type));
    const columns = def.columns.map((c, i) =>
      c.type === 'VARCHAR[]' ? values[i].map((v) => (v === null ? null : listValue(v as string[]))) : values[i],
    ) as DuckDBValue[][];
    const appender = await this.writer.createAppender(stage, 'main', 'temp');
    try {
      for (let start = 0; start < rows; start += CHUNK_ROWS) {
        const end = Math.min(rows, start + CHUNK_ROWS);
        const chunk = DuckDBDataChunk.create(types, end - start);
        chunk.setColumns(columns.map((col) => col.slice(start, end)));
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /**
   * Upserts every table's rows and writes the partition checkpoint in ONE transaction: after a crash
   * or an error at any step, either all of it is visible or none of it. Batches that arrive while a
   * commit runs are committed together by the next one (commitGroup.ts); if that shared transaction
   * fails, each of them is committed alone, so an error reaches only the batch that causes it.
   */
  commitBatch(tables: TableBatch[], checkpoint: CheckpointWrite, run?: RunRecord, walk?: SnapshotWalkRecord): Promise<void> {
    const committed = new Promise<void>((resolve, reject) => this.waiting.push({ tables, checkpoint, run, walk, resolve, reject }));
    this.scheduleCommit();
    return committed;
  }

  /**
   * One commit task per batch on the write queue, made outside commitBatch so the queued closure holds
   * no batch. A task whose batch an earlier group committed returns at once, but until it ran, a
   * closure made in commitBatch kept that batch's columns alive through its scope: under a long
   * backfill the queue grew faster than it ran, and at 30x the demo's world 247 of the worker's 308 MB
   * of live heap were committed batches (bench/README.md, "The worker's heap held committed batches").
   */
  private scheduleCommit(): void {
    void this.queue.run(() => this.commitWaiting());
  }

  private async commitWaiting(): Promise<void> {
    const group = takeGroup(this.waiting);
    if (group.length === 0) return; // an earlier commit took this batch
    let committed = false;
    try {
      await this.ensureOpen();
    } catch (error) {
      return group.forEach((member) => member.reject(unopened(error)));
    }
    try {
      await this.commitGroup(group, () => (committed = true)).catch(async (error: unknown) => {
        if (committed || !isOutOfMemory(error)) throw error;
        await this.relieveMemory(error);
        await this.commitGroup(group, () => (committed = true));
      });
      for (const member of group) member.resolve();
      await this.checkpointQuietly();
    } catch (error) {
      if (isFatal(error)) {
        // Every member fails (the activity retries it from the checkpoint the file holds); the next commit finds the file open again,
        // or opens it (ensureOpen). Settled either way: a member left waiting would hold its activity until it timed out.
        const failed = await this.reopen(error).then(
          () => error,
          (reopenError: unknown) => unopened(reopenError, error),
        );
        return group.forEach((member) => member.reject(failed));
      }
      // After COMMIT the rows are in: committing again would count run totals twice.
      if (committed) return group.forEach((member) => member.reject(error));
      if (group.length === 1) {
        if (!isOutOfMemory(error)) return group[0].reject(error);
        return this.commitInPieces(group[0], error).then(group[0].resolve, group[0].reject);
      }
      for (const member of group) {
        try {
          await this.commitGroup([member], () => undefined).catch((own: unknown) => {
            if (!isOutOfMemory(own)) throw own;
            return this.commitInPieces(member, own);
          });
          member.resolve();
        } catch (own) {
          member.reject(own);
        }
      }
    }
  }

  /**
   * A batch that ran out of buffer memory on its own, after a checkpoint freed what it could, commits
   * in pieces from the rows it holds (never fetching its pages again): each table in its own
   * transaction, a table's rows halved again while a piece still runs out, and the checkpoint, the
   * run's records and the versioned tables (whose walk closes need the walk's whole stage) with the
   * last piece. A crash between pieces leaves rows merged ahead of their checkpoint: the retry from
   * that checkpoint merges the same rows again, which upserts and versions leave as they are. A piece
   * that cannot be split further and still runs out stops the partition (CommitMemoryError).
   */
  private async commitInPieces(member: PendingCommit, cause: unknown): Promise<void> {
    const rows = member.tables.reduce((n, t) => n + t.rows, 0);
    this.options.onMemoryRelief?.(cause, 'in pieces');
    const piece = async (tables: TableBatch[], records: boolean): Promise<void> => {
      const part: PendingCommit = { ...member, tables, records };
      try {
        await this.commitGroup([part], () => undefined);
      } catch (error) {
        if (!isOutOfMemory(error)) throw error;
        await this.relieveMemory(error);
        const [batch] = tables;
        if (tables.length === 1 && batch.rows >= 2 * MIN_PIECE_ROWS && batch.table.merge !== 'versions') {
          const half = Math.ceil(batch.rows / 2);
          const slice = (from: number, to: number): TableBatch => ({ table: batch.table, columns: batch.columns.map((c) => c.slice(from, to)), rows: to - from });
          await piece([slice(0, half)], false);
          return piece([slice(half, batch.rows)], records);
        }
        try {
          return await this.commitGroup([part], () => undefined);
        } catch (again) {
          if (!isOutOfMemory(again)) throw again;
          const first = (again instanceof Error ? again.message : String(again)).split('\n')[0];
          throw new CommitMemoryError(
            `${member.checkpoint.partitionId}: a batch of ${rows} rows does not fit the warehouse's buffer limit (warehouse.memoryLimit ${this.memoryLimit}) even committed table by table (${tables.map((t) => `${t.table.name}: ${t.rows} rows`).join(', ')}): raise warehouse.memoryLimit; the partition stops at its checkpoint (${first})`,
            { cause: again },
          );
        }
      }
    };
    const versioned = member.tables.filter((t) => t.table.merge === 'versions');
    for (const batch of member.tables.filter((t) => t.table.merge !== 'versions' && t.rows > 0)) await piece([batch], false);
    await piece(versioned, true);
  }

  private async commitGroup(group: PendingCommit[], onCommitted: () => void): Promise<void> {
    await this.fault('before-begin');
    const checkpoints = this.checkpointCache();
    const tables = groupTables(group);
    const stages = new Map<string, string>();
    for (const table of tables) stages.set(table.name, await this.stageTable(table));
    await profiled('begin', () => this.writer.run('BEGIN TRANSACTION'));
    const updatedAt = new Date().toISOString();
    try {
      await this.fault('after-begin');
      // The lake partitions this commit changes (lakeKeys.ts): each merge marks those of its rows, the
      // follow-up SQL those it updates elsewhere, a versioned merge and the walk records here; none
      // before the first export or verify (startChangeMarks). Cleared by the export that writes them.
      const marks: [string, string][] = [];
      for (const table of tables) {
        const parts = group.flatMap((m) => m.tables.filter((t) => t.table.name === table.name));
        const { columns, rows } = concatUnique(table, parts);
        profileRows(table.name, rows);
        await this.fault(`after-batch:${table.name}`);
        if (rows > 0) {
          const stage = stages.get(table.name)!;
          await profiled('append', () => this.appendColumns(table, stage, columns, rows));
          await this.fault(`after-append:${table.name}`);
          if (table.merge !== 'versions') {
            // Merge, follow-up updates and emptying the stage in one call: each call to DuckDB is a
            // round trip through the thread pool, and a batch writes several tables.
            const pruneColumn = table.pruneBy ? columns[table.columns.findIndex((c) => c.name === table.pruneBy)] : undefined;
            const statements = tableMergeStatements(table, stage, { constrained: this.constrained.has(table.name), nullPrune: pruneColumn?.some((v) => v === null), marks: this.marking });
            // Profiled per table (GLACIER_COMMIT_PROF): a night's growth shows which table's SQL it is in.
            const kind = `merge:${table.merge}:${table.name}`;
            if (!profileStatements) await profiled(kind, () => this.writer.run(statements.join(';\n')));
            else for (const [i, sql] of statements.flatMap(splitStatements).entries()) await profiled(`${kind}:${i}:${sql.slice(0, 40).replace(/\s+/g, ' ')}`, () => this.writer.run(sql));
          }
        }
        if (table.merge === 'versions') {
          // Versioned (versions.ts): the batch's changes, and what the walks this commit finishes did not
          // list, found first and written as needed, while the stage holds this commit's rows.
          const stage = stages.get(table.name)!;
          const finishing = group.flatMap(({ tables: batches, checkpoint, walk }) =>
            walk && batches.some((b) => b.table.name === table.name) ? [{ stream: checkpoint.stream, partitionId: checkpoint.partitionId, snapshotAt: walk.snapshotAt, params: walk.params }] : [],
          );
          if (rows > 0 || finishing.length > 0) for (const key of await profiled('merge:versions', () => mergeVersions(this.writer, table, stage, finishing, this.marking))) marks.push([table.name, key]);
          if (rows > 0) await this.writer.run(`DELETE FROM ${ident(stage)}`);
        }
        await this.fault(`after-table:${table.name}`);
      }
      // Versioned tables: the keys listed by a walk that spans several commits wait for the commit that
      // finishes it (a walk this commit holds whole needs none: its closes read the stage); a finished
      // walk's recorded keys go (versions.ts).
      const seen = new SeenKeys();
      for (const { tables: batches, checkpoint, run, walk } of group) {
        if (walk && run && walk.pages === run.pages) continue;
        for (const batch of batches) if (batch.table.merge === 'versions' && batch.rows > 0) seen.add(checkpoint.stream, checkpoint.partitionId, batch);
      }
      if (seen.size) await this.writer.run(sqlFile('ops/recordWalkKeys.sql'), seen.params());
      const finished = group.filter((m) => m.walk && m.tables.some((b) => b.table.merge === 'versions')).map((m) => m.checkpoint);
      if (finished.length) await this.writer.run(sqlFile('ops/forgetWalkKeys.sql'), [listValue(finished.map((c) => c.stream)), listValue(finished.map((c) => c.partitionId))]);
      const recorded = group.filter((m) => m.records !== false);
      for (const { walk } of recorded) if (walk) marks.push(['_glacier_snapshot_walks', dayOnlyLakeKey(walk.snapshotAt)]);
      if (marks.length && this.marking) {
        await profiled('marks', () => this.writer.run(`${MARK_INSERT} SELECT t, k, nextval('_glacier_lake_seq') FROM (SELECT DISTINCT unnest($1::VARCHAR[]) AS t, unnest($2::VARCHAR[]) AS k)`, [
          listValue(marks.map((m) => m[0])),
          listValue(marks.map((m) => m[1])),
        ]));
      }
      await this.fault('before-checkpoint');
      // Checkpoints, run records, finished walks and field records: one statement each for the whole group (commitRecords.ts).
      for (const members of distinctPartitionRuns(recorded)) {
        await profiled('checkpoint', () => this.runBound(checkpointsStatement(members, updatedAt)));
        const runs = members.flatMap(({ checkpoint: c, run }) => (run ? [{ run, partitionId: c.partitionId, stream: c.stream }] : []));
        if (runs.length) await profiled('runRecord', () => this.runBound(runRecordsStatement(runs)));
        const walks = members.filter((m): m is PendingCommit & { walk: SnapshotWalkRecord } => m.walk !== undefined);
        if (walks.length) await profiled('walk', () => this.runBound(walksStatement(walks)));
        const fields = fieldsStatement(members);
        if (fields) await profiled('fields', () => this.runBound(fields));
      }
      for (const { checkpoint, run } of recorded) {
        for (const d of run?.drift ?? []) await this.runPrepared('ops/recordDrift.sql', [checkpoint.stream, d.path, d.kind, run!.runId, d.count, d.sample]);
      }
      await this.fault('before-commit');
      // COMMIT with room, as a checkpoint: a COMMIT that ran out of memory was not a clean failure. At a
      // 16MB limit, after 'TransactionContext Error: Failed to commit: failed to pin block', the upserts
      // of `_glacier_sync_runs` for that partition failed 'Duplicate key' on every retry, even after the
      // file was opened again (commitMemory.test.ts, 1 run in 2). The statements above run under the
      // sync limit, and a batch that cannot fit there is committed in pieces.
      await profiled('commit', () => this.withRoom(() => this.writer.run('COMMIT')));
      onCommitted();
    } catch (error) {
      await this.writer.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
    const cache = await checkpoints;
    const recorded = group.filter((m) => m.records !== false);
    if (this.fields) {
      const fields = await this.fields;
      for (const { checkpoint, run } of recorded) for (const [path, f] of run?.fields ?? []) addTo(fields, checkpoint.partitionId, path, f);
    }
    for (const { checkpoint: c } of recorded) {
      cache.set(c.partitionId, { partitionId: c.partitionId, stream: c.stream, pageToken: c.pageToken, cursor: structuredClone(c.cursor), rows: c.rows, pages: c.pages, complete: c.complete, updatedAt });
    }
    profileCommit(group.length);
    await this.fault('after-commit');
  }

  /** A prepared statement of a file under sql/, prepared once per warehouse and bound per call. */
  private async runPrepared(file: string, params: DuckDBValue[], types?: DuckDBType[]): Promise<void> {
    let statement = this.prepared.get(file);
    if (!statement) {
      statement = await this.writer.prepare(sqlFile(file));
      this.prepared.set(file, statement);
    }
    statement.bind(params, types);
    await statement.run();
  }

  private runBound({ file, params, types }: BoundStatement): Promise<void> {
    return this.runPrepared(file, params, types);
  }

  private checkpointCache(): Promise<Map<string, CheckpointView>> {
    this.checkpoints ??= this.listCheckpoints().then(
      (list) => new Map(list.map((c) => [c.partitionId, c])),
      (error: unknown) => {
        this.checkpoints = undefined; // the next call retries the read
        throw error;
      },
    );
    return this.checkpoints;
  }

  /** Top-level fields a partition (scope) has seen, and whether every item sent them (missing_field drift's baseline); loaded once, kept by the commits. */
  private fields: Promise<Map<string, Map<string, FieldPresence>>> | undefined;

  async streamFields(scope: string): Promise<Map<string, FieldPresence>> {
    this.fields ??= this.query(sqlFile('ops/listStreamFields.sql')).then(
      (rows) => {
        const out = new Map<string, Map<string, FieldPresence>>();
        for (const r of rows) addTo(out, String(r.scope), String(r.path), { items: Number(r.items), always: Boolean(r.always) });
        return out;
      },
      (error: unknown) => {
        this.fields = undefined;
        throw error;
      },
    );
    return new Map((await this.fields).get(scope) ?? []);
  }

  /** Records drift without rows (a page that stopped its partition: a type change, a frozen contract), serialized with commits. */
  async recordDrift(stream: string, runId: string, drift: readonly DriftSeen[]): Promise<void> {
    if (drift.length === 0) return;
    await this.writeTransaction(async (connection) => {
      for (const d of drift) await connection.run(sqlFile('ops/recordDrift.sql'), [stream, d.path, d.kind, runId, d.count, d.sample]);
    });
  }

  /**
   * The chain list the API sent at planning: chains it lists that the warehouse has not seen are
   * added to the baseline (stream CHAIN_LIST in _glacier_stream_fields); once a baseline exists, a
   * new one the config does not name is new_chain drift. One transaction.
   */
  async recordChainList(runId: string, chains: readonly { chainId: string; sample: string | null }[], configured: ReadonlySet<string>): Promise<DriftSeen[]> {
    const known = await this.streamFields(CHAIN_LIST);
    const fresh = chains.filter((c) => !known.has(c.chainId));
    if (fresh.length === 0) return [];
    const drift: DriftSeen[] = known.size === 0 ? [] : fresh.filter((c) => !configured.has(c.chainId)).map((c) => ({ kind: 'new_chain', path: c.chainId, count: 1, sample: c.sample }));
    await this.writeTransaction(async (connection) => {
      for (const c of fresh) await connection.run(sqlFile('ops/recordStreamField.sql'), [CHAIN_LIST, c.chainId, 1, true, runId]);
      for (const d of drift) await connection.run(sqlFile('ops/recordDrift.sql'), [CHAIN_LIST, d.path, d.kind, runId, d.count, d.sample]);
    });
    const fields = await this.fields!;
    for (const c of fresh) addTo(fields, CHAIN_LIST, c.chainId, { items: 1, always: true });
    return drift;
  }

  /** Every drift row (status, verify, report). */
  async listDrift(): Promise<DriftRow[]> {
    return (await this.query(sqlFile('ops/listDrift.sql'))).map((r) => ({
      stream: String(r.stream),
      path: String(r.path),
      kind: String(r.kind) as DriftRow['kind'],
      firstRun: String(r.first_run),
      lastRun: String(r.last_run),
      firstSeen: String(r.first_seen),
      lastSeen: String(r.last_seen),
      count: Number(r.count),
      sample: r.sample === null ? null : String(r.sample),
    }));
  }

  async readCheckpoint(partitionId: string): Promise<CheckpointView | undefined> {
    const view = (await this.checkpointCache()).get(partitionId);
    return view && { ...view, cursor: structuredClone(view.cursor) };
  }

  async listCheckpoints(): Promise<CheckpointView[]> {
    return (await this.query(sqlFile('ops/listCheckpoints.sql'))).map(toCheckpointView);
  }

  /** Reads committed data (bound parameters only). 64-bit and larger integers come back as bigint. */
  query(sql: string, params: DuckDBValue[] = []): Promise<Record<string, unknown>[]> {
    return this.use(async () => (await this.reader.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[]);
  }

  /**
   * Commits mark the lake partitions they change (lakeKeys.ts) from the first export or verify on:
   * the marks tell those what changed since they last read, and before that both read everything (the
   * export compares each table it never wrote whole, the verify runs in full). So a new warehouse's
   * first backfill writes none (8-10% of a page's CPU: bench/README.md). On the write queue: commits
   * queued after it mark; those before it are in what the caller reads next.
   */
  async startChangeMarks(): Promise<void> {
    if (this.marking) return;
    await this.withWriter(async (connection) => {
      await connection.run(sqlFile('ops/setGlacierMeta.sql'), ['change_marks', 'on']);
      this.marking = true;
    });
  }

  /** Runs `fn` in one transaction on the writer connection, serialized with commits; rolled back when it throws. */
  writeTransaction(fn: (connection: DuckDBConnection) => Promise<void>): Promise<void> {
    return this.withWriter(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        await fn(connection);
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** Runs statements on the writer connection, serialized with commits (exports, maintenance). */
  withWriter<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      await this.ensureOpen().catch((error: unknown) => Promise.reject(unopened(error)));
      const result = await fn(this.writer);
      await this.checkpointQuietly();
      return result;
    });
  }

  /**
   * Checkpoints now when the WAL holds anything (on the write queue, with room): the file at rest then
   * holds every committed row, and the next process to open it replays no WAL. Then the instance may
   * be opened again (renew). Every run ends with it (retention.ts), so a night's writes are
   * checkpointed while they are few.
   */
  settle(): Promise<void> {
    return this.queue.run(async () => {
      await this.ensureOpen().catch((error: unknown) => Promise.reject(unopened(error)));
      await this.checkpointQuietly(true);
      await this.renew();
    });
  }

  /** checkpointIfDue after a write; a failure there is the checkpoint's, not the write's (DuckDB tries again at a later commit). */
  private async checkpointQuietly(always = false): Promise<void> {
    try {
      await this.checkpointIfDue(always);
    } catch (error) {
      this.options.onCheckpointError?.(error);
    }
  }

  /** A fresh connection for long reads (export) that must not hold up the shared reader. */
  connect(): Promise<DuckDBConnection> {
    return this.use(async () => {
      const connection = await this.instance.connect();
      // A use until it is closed (renew waits for it).
      this.users += 1;
      this.lent += 1;
      const disconnect = connection.disconnectSync.bind(connection);
      let open = true;
      connection.closeSync = connection.disconnectSync = () => {
        if (open) this.users -= 1;
        open = false;
        disconnect();
      };
      return connection;
    });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => {
      if (this.lost !== undefined) return; // nothing open to close
      // The closing checkpoint, with room, instead of DuckDB's at shutdown under the sync limit.
      await this.checkpointQuietly(true);
      this.writer.closeSync();
      this.reader.closeSync();
      this.instance.closeSync();
    });
  }
}

function addTo(maps: Map<string, Map<string, FieldPresence>>, stream: string, path: string, presence: FieldPresence): void {
  const map = maps.get(stream);
  if (map) map.set(path, { ...presence });
  else maps.set(stream, new Map([[path, { ...presence }]]));
}

/** The drift table's stream name for the API's chain list (new_chain). */
export const CHAIN_LIST = 'chains';

/** A row of _glacier_drift as read back. */
export interface DriftRow {
  stream: string;
  path: string;
  kind: DriftSeen['kind'];
  firstRun: string;
  lastRun: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
  sample: string | null;
}

/** Records what planning spent (no rows, no checkpoint), serialized with commits. */
export function recordPlanCost(warehouse: Warehouse, run: Omit<RunRecord, 'pages' | 'rows' | 'done'> & { cost: RunCost }): Promise<void> {
  return recordRunCost(warehouse, 'plan', 'plan', { ...run, pages: 0, rows: 0, done: true });
}

/**
 * Adds requests to a partition's run record without rows or a checkpoint: what a batch spent before
 * it failed (the server charged it; its pages are fetched again by the retry), serialized with commits.
 */
export async function recordRunCost(warehouse: Warehouse, partitionId: string, stream: string, run: RunRecord): Promise<void> {
  await warehouse.withWriter(async (connection) => {
    const { file, params, types } = runRecordsStatement([{ run, partitionId, stream }]);
    await connection.run(sqlFile(file), params, types);
  });
}

function toCheckpointView(row: Record<string, unknown>): CheckpointView {
  return {
    partitionId: String(row.partition_id),
    stream: row.stream as StreamName,
    pageToken: (row.page_token as string | null) ?? null,
    cursor: JSON.parse(String(row.cursor)) as Record<string, unknown>,
    rows: Number(row.rows),
    pages: Number(row.pages),
    complete: Boolean(row.complete),
    updatedAt: String(row.updated_at),
  };
}

/** The instance and its two connections (writes; reads of committed data). */
async function openFile(path: string, options: OpenOptions): Promise<{ instance: DuckDBInstance; writer: DuckDBConnection; reader: DuckDBConnection }> {
  const memoryLimit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  const instance = await DuckDBInstance.create(path, {
    memory_limit: memoryLimit,
    checkpoint_threshold: options.checkpointThreshold ?? defaultCheckpointThreshold(memoryLimit),
    threads: String(options.threads ?? DEFAULT_THREADS),
  });
  return { instance, writer: await instance.connect(), reader: await instance.connect() };
}

/** The error of a write that found the file closed after a fatal error and could not open it again. */
function unopened(error: unknown, fatal?: unknown): Error {
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];
  return new Error(`warehouse file could not be opened again${fatal === undefined ? '' : ` after a fatal error (${message(fatal)})`}: ${message(error)}`, { cause: error });
}

/** A DuckDB error after which the database must be opened again (DuckDB says FATAL and invalidates it). */
export function isFatal(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^FATAL Error|database has been invalidated/.test(message);
}

/** DuckDB could not pin or allocate a buffer block under its memory limit (not fatal: the transaction is rolled back). */
export function isOutOfMemory(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^Out of Memory Error/.test(message);
}

/** Opens (creating if needed) the warehouse file and applies the schema. */
export function openWarehouse(path: string, options: OpenOptions = {}): Promise<Warehouse> {
  return Warehouse.open(path, options);
}
