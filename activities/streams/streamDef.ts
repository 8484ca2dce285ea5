import { createHash } from 'node:crypto';
import type { Endpoint, ListEndpoint, ListResponse, PageParams } from '../api/endpoint.ts';
import type { RequestMeter } from '../api/requestMeter.ts';
import type { PartitionSpec, SyncMode, WalkCursor } from '../../common/activityTypes.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { StreamName } from '../../common/streamNames.ts';
import type { ColumnBatch } from '../warehouse/columnBatch.ts';
import type { Row, TableDef } from '../warehouse/tableDef.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import type { OwnCursor } from './ownCursor.ts';
import type { z } from 'zod';
import type { DriftSeen } from '../warehouse/driftRecord.ts';
import type { StreamContract } from '../../common/config.ts';
import { EXTRA_COLUMN, type PageContext, type TableSpec } from './columns.ts';
import { childEntry, finish, listElement, probeColumns, scanItems, schemaTree, standIn, type FieldNode, type PageScan } from './unmapped.ts';

/** What a stream needs from the Data API client: one validated call of one endpoint. */
export interface StreamClient {
  /**
   * `options.partition` is the client's fair-share key: waiting requests are served round-robin
   * across partitions. `options.meter` counts the attempts and CU of the call.
   */
  call<P, R>(endpoint: Endpoint<P, R>, params: P, options?: { partition?: string; meter?: RequestMeter }): Promise<R>;
}

/** One fetched page: its items, and the token of the next page (absent on the last). */
export interface StreamPage<T = unknown, M = unknown> {
  items: readonly T[];
  nextPageToken?: string;
  /** The whole response, for values outside the item list (e.g. nativeTokenBalance). */
  response?: unknown;
  /** A newest-first walk without StreamDecl.identity: the identity of the page's newest item (the walk keeps the first). */
  newest?: string;
  /** What the page tells the stream's own cursor part (StreamDecl.cursor folds it in). */
  marks?: M;
  /** The server ended this page before the requested size while more remain (counted apart in the CU optimum). */
  cut?: boolean;
  /**
   * Per item (list order), whether an earlier complete walk of the partition stored it and it cannot
   * have changed since (the stream's own rule, from its cursor part: pn.validators' final validations
   * below the last walk's newest). A sync's batch leaves them out, as it does StoredPart; the run still
   * counts the page's rows whole. Set only from the marks of a complete walk, so a backfill has none.
   */
  stored?: readonly boolean[];
}

/** Where the walk is: the page token to request (null = first page) and the stream's request bounds. */
export interface FetchState<S = unknown> {
  pageToken: string | null;
  /** range streams: inclusive lower bound of this walk (block number or epoch seconds). */
  from?: number;
  pageSize: number;
  /** The walk cursor (read-only): streams that steer their own incremental walk read their part (`stream`) here. */
  cursor?: Readonly<WalkCursor<S>>;
}

/** Values every row of a batch is stamped with. */
export interface NormalizeContext {
  partition: PartitionSpec;
  snapshotAt: number;
  runId: string;
  /** The stream's contract (config `contracts`): `discard` keeps no unmapped fields (default evolve: keeps them in `_extra`). */
  contract?: StreamContract;
}

/** Derived inputs for partitions that depend on earlier results (node ids found by pn.validators). */
export interface Discovered<D = unknown> {
  validatorNodeIds?: Map<string, string[]>;
  /** Latest block per EVM chain id, read at planning time (block-range streams split their backfill by it). */
  chainHeads?: Map<string, number>;
  /** The streams this run plans (a stream may lean on another walked in the same run: pn.utxos on pn.transactions). */
  streams?: readonly StreamName[];
  /** Which wave of a pipeline run is planned (unset: a plan of every partition at once, as verify and shard routing ask). */
  wave?: 'configured' | 'derived';
  mode?: 'backfill' | 'sync';
  /** The derived wave: what this stream's own planning found in the warehouse (StreamDecl.derive). */
  derived?: D;
}

/** What a stream's planning of the derived wave may read (StreamDecl.derive). */
export interface DeriveContext {
  warehouse: Warehouse;
  config: ResolvedConfig;
  plan: Discovered;
  /** The run being planned: the walks it completed so far are this run's. */
  runId?: string;
}

type FetchPage<T, S = unknown, M = unknown> = (client: StreamClient, partition: PartitionSpec, state: FetchState<S>) => Promise<StreamPage<T, M>>;

/**
 * How one table of a stream gets its rows from a page: the items themselves, a list inside each item
 * (child tables), or a value of the whole response. The stream's item type `T` is checked against
 * the table's column readers here; past this point only the closure knows it.
 */
export interface TableSource<T> {
  table: TableDef;
  /** Appends the page's rows of `table` to `out`, column by column; returns the rows added. */
  fill(page: StreamPage<T>, x: PageContext, out: ColumnBatch): number;
  /** What the rows come from: the items (their unmapped fields go to `_extra`), entries of lists inside them, or the page. */
  from?: 'items' | 'children' | 'page';
  /** Runs the table's column readers on a stand-in item (unmapped.ts), noting which fields they read. */
  probe?(item: T): void;
  /** The rows `fill` would add for the page, without adding them (a page's rows are counted whole even when only its new items are written). */
  count(page: StreamPage<T>, x: PageContext): number;
  /** What a value beside the items carried that the stream did not expect (`from: 'page'`; the items' own drift is the page scan's). */
  drift?(page: StreamPage<T>): DriftSeen[];
}

function filler<S>(table: TableSpec<S>, out: ColumnBatch, sources: readonly S[], x: PageContext, keyOf?: (s: S) => object): number {
  const { columns } = table;
  const start = out.rows;
  for (let c = 0; c < columns.length; c++) {
    const get = columns[c].get;
    const vector = out.columns[c];
    for (let i = 0; i < sources.length; i++) vector.push(get(sources[i], x));
  }
  // The unmapped fields of each source (JSON text, found by the page scan) go to `_extra`, wherever it
  // stands: a versioned table has valid_to after it.
  const unmapped = x.unmapped;
  if (unmapped !== undefined && unmapped.size > 0 && keyOf !== undefined) {
    const vector = out.columns[columns.findIndex((c) => c.name === EXTRA_COLUMN)];
    for (let i = 0; i < sources.length; i++) {
      const text = unmapped.get(keyOf(sources[i]));
      if (text !== undefined) vector[start + i] = text;
    }
  }
  out.rows += sources.length;
  return sources.length;
}

const itself = <T>(item: T) => item as object;

/** A table with one row per item (of the pages whose context passes `when`, if given). */
export function rowsOf<T>(table: TableSpec<T>, when?: (x: PageContext) => boolean): TableSource<T> {
  return {
    table,
    from: 'items',
    fill: (page, x, out) => (when && !when(x) ? 0 : filler(table, out, page.items, x, itself)),
    probe: (item) => probeColumns(table, item),
    count: (page, x) => (when && !when(x) ? 0 : page.items.length),
  };
}

/** A child row: an entry of a list inside a parent item, its position in that list, and which list (`tag`). */
export interface Child<P, I> {
  parent: P;
  item: I;
  index: number;
  tag: string;
}

type Lists<T, I> = Record<string, (item: T) => readonly I[] | null | undefined> | ((item: T) => [tag: string, list: readonly I[] | null | undefined][]);

/**
 * A child table: one row per entry of each list of each item, parent first, lists in the order given
 * (by tag, or by a function naming them per item when the item's keys are open).
 */
export function childrenOf<T, I>(table: TableSpec<Child<T, I>>, lists: Lists<T, I>): TableSource<T> {
  type Named = [tag: string, list: readonly I[] | null | undefined][];
  const tagged = typeof lists === 'function' ? [] : Object.entries(lists);
  const listsOf: (item: T) => Named = typeof lists === 'function' ? lists : (item) => tagged.map(([tag, list]) => [tag, list(item)]);
  return {
    table,
    from: 'children',
    fill(page, x, out) {
      const children: Child<T, I>[] = [];
      for (const parent of page.items) {
        for (const [tag, entries] of listsOf(parent)) {
          if (entries) for (let index = 0; index < entries.length; index++) children.push({ parent, item: entries[index], index, tag });
        }
      }
      return filler(table, out, children, x, (c) => c.item as object);
    },
    probe(parent) {
      for (const [tag, list] of listsOf(parent)) probeColumns(table, { parent, item: childEntry(list) as I, index: 0, tag });
    },
    count(page) {
      let n = 0;
      for (const parent of page.items) for (const [, entries] of listsOf(parent)) n += entries?.length ?? 0;
      return n;
    },
  };
}

/**
 * A table filled from a value the page sends beside its item list (`response[key]`, e.g. the
 * nativeTokenBalance of an ERC balance page): `entry` makes the row's source of it, and `schema`
 * describes that source (what the API sends, plus what `entry` adds). The value's unmapped fields go
 * to its row's `_extra` as an item's do, and what it carries that the schema does not know is drift,
 * at paths under `key`.
 */
export function fromPage<T, S>(table: TableSpec<S>, beside: { key: string; schema: z.ZodType; entry: (value: object, x: PageContext) => S }): TableSource<T> {
  let tree: FieldNode | undefined;
  const treeOf = (): FieldNode => {
    if (tree === undefined) {
      const t = schemaTree(beside.schema, beside.key);
      probeColumns(table, standIn(t) as S);
      tree = finish(t);
    }
    return tree;
  };
  const valueOf = (page: StreamPage<T>): object | undefined => {
    const v = (page.response as Record<string, unknown> | undefined)?.[beside.key];
    return v !== null && typeof v === 'object' ? v : undefined;
  };
  return {
    table,
    from: 'page',
    fill(page, x, out) {
      const value = valueOf(page);
      if (value === undefined) return 0;
      const unmapped = x.contract === 'discard' ? undefined : scanItems([value], treeOf()).unmapped;
      return filler(table, out, [beside.entry(value, x)], unmapped ? { ...x, unmapped } : x, () => value);
    },
    count: (page) => (valueOf(page) === undefined ? 0 : 1),
    drift(page) {
      const value = valueOf(page);
      return value === undefined ? [] : [...scanItems([value], treeOf()).drift.values()];
    },
  };
}

/**
 * A stream as declared: where it reads, how it walks, and the tables its items fill. S: its own part
 * of the walk cursor, M: the marks its pages report for it, D: what its planning of the derived
 * wave finds (each only for a stream that declares `cursor` or `derive`).
 */
export interface StreamDecl<T, S = unknown, M = unknown, D = unknown> {
  name: StreamName;
  mode: SyncMode;
  /** When partitions of one stream walk differently (pn.transactions: chain-wide vs per address). */
  modeOf?(partition: PartitionSpec): SyncMode;
  /**
   * The endpoint a walk calls once per page: its weight (CU per request), largest page and list key
   * are read from there, never copied into the stream.
   */
  walks: Endpoint<never, unknown> & { maxPageSize?: number };
  fetchPage: FetchPage<T, S, M>;
  /**
   * The schema of one item, when the items are not the entries of `walks`' list key (or its whole
   * response, for a get endpoint): which fields are known, for drift (unmapped.ts).
   */
  items?: z.ZodType;
  /** Every table the items fill, parent first. A table may appear twice (filled from two sources). */
  sources: TableSource<T>[];
  /** Block-range streams: planning reads each chain's head first (one blocks page per chain). */
  needsChainHeads?: boolean;
  /** Derived streams also plan partitions from discovered values (second wave of a pipeline run). */
  takesDiscovered?: boolean;
  /** Not in the default stream set (a config that lists no streams): a config names it to run it. */
  optIn?: boolean;
  /** Partitions from the config (and, for derived streams, from discovered values). */
  partitions(config: ResolvedConfig, discovered?: Discovered<D>): PartitionSpec[];
  /**
   * The derived wave of a pipeline run: planning that reads the warehouse (what the first wave
   * stored), before `partitions` is asked; its answer reaches `partitions` as `discovered.derived`.
   */
  derive?(ctx: DeriveContext): Promise<D | undefined>;
  /** State this stream keeps across walks in its part of the cursor (`cursor.stream`), and how a walk carries it. */
  cursor?: OwnCursor<S, M>;
  /**
   * descending-until-known and range: the item's position in the walk order (block number, height or
   * epoch seconds), compared with the stored high-water mark.
   */
  orderKey?(item: T): number | null;
  /**
   * A stable identity of an item (activities/sync/walk.ts).
   * - snapshot-merge streams whose list is newest-first and append-only (an item never changes once
   *   listed, new items appear on top): a sync walk ends at the page that lists the newest item of
   *   the partition's last complete walk.
   * - descending-until-known: the walk keeps the identities of the items at its top key, so the
   *   next walk knows which items at the high-water mark are stored (keys such as timestamps repeat:
   *   an item listed after the mark was taken may share it). Without it every item at the mark is
   *   written again.
   */
  identity?(item: T): string;
  /**
   * A sync's new walk of this partition: true when its cursor alone shows that nothing can have
   * changed (every configured key read already and final), so the walk completes without a request.
   */
  unchanged?(partition: PartitionSpec, cursor: Readonly<WalkCursor<S>>): boolean;
  /**
   * snapshot-replace into versioned tables: a sync walk that lists the same items, page by page, as the
   * partition's last complete walk writes no row (the open versions are those items already) and only
   * records the walk. Only for a stream whose walks close nothing another partition's walk writes
   * (VersionsSpec.scope is the partition's own): the digest vouches for this partition's rows alone.
   */
  sameWalks?: boolean;
}

/**
 * The part of a sync walk's page that earlier walks of the partition stored (activities/sync/walk.ts,
 * storedPart): `below`, the items whose orderKey is under the high-water mark, and those at it
 * whose identity is in `at`; `from`, the item with this identity and every item after it in list
 * order. Items without a key, or a stream that declares no orderKey or identity, are never taken
 * for stored.
 */
export type StoredPart = { below: number; at?: readonly string[] } | { from: string };

/** Rows a page gave to its batches, and what the whole page held. */
export interface Extracted {
  /** Rows appended to the batches (every table). */
  rows: number;
  /** Items those rows came from. */
  items: number;
  /** Rows the whole page holds, the items left out as stored included (what the run record counts). */
  held: number;
}

/** A fetched page as the generic driver sees it: what the walk needs, and the page's rows on demand. */
export interface DrivenPage {
  /** API items the page held. */
  items: number;
  nextPageToken?: string;
  newest?: string;
  /** For the stream's own cursor part (StreamDriver.cursor). */
  marks?: unknown;
  /** The server cut this page short while more remain (StreamPage.cut). */
  cut?: boolean;
  /** Walk-order keys of the items (see StreamDecl.orderKey), finite ones only. */
  orderKeys(): number[];
  /** Identities of the items in list order (see StreamDecl.identity). */
  identities(): string[];
  /** Walk-order key and identity of each item that has both (streams declaring orderKey and identity), in list order. */
  keyed(): [key: number, id: string][];
  /** A digest of the page's items (sha1 of their JSON): equal items in the same order, equal digest. */
  digest(): string;
  /** Rows the page would give its tables, counted without filling them (what the run record counts). */
  held(ctx: NormalizeContext): number;
  /**
   * Appends the page's rows to the column batches (by table name). With `stored`, the items earlier
   * walks stored are left out (values of the whole page, StreamPage.response, are always written).
   */
  extract(ctx: NormalizeContext, into: ReadonlyMap<string, ColumnBatch>, stored?: StoredPart): Extracted;
  /** What the page carried that the stream did not expect (new fields, new enum values); scanned once per page. */
  drift(): DriftSeen[];
  /** Top-level keys of the page's items: how many items sent each, and of how many (missing_field drift). */
  keys(): { counts: ReadonlyMap<string, number>; items: number };
  /** The page's rows as plain objects per table (ground-truth tests, tools). */
  rows(ctx: NormalizeContext): Record<string, Row[]>;
}

/** What the sync core, planner and tools see of a stream: no item type, nothing to cast. */
export interface StreamDriver {
  name: StreamName;
  mode: SyncMode;
  modeOf?(partition: PartitionSpec): SyncMode;
  walks: Endpoint<never, unknown> & { maxPageSize?: number };
  /** Every table the stream fills, each once, parent first. */
  tables: TableDef[];
  needsChainHeads?: boolean;
  takesDiscovered?: boolean;
  optIn?: boolean;
  partitions(config: ResolvedConfig, discovered?: Discovered): PartitionSpec[];
  /** See StreamDecl.derive. */
  derive?(ctx: DeriveContext): Promise<unknown>;
  /** See StreamDecl.cursor. */
  cursor?: OwnCursor;
  /** See StreamDecl.unchanged. */
  unchanged?(partition: PartitionSpec, cursor: Readonly<WalkCursor>): boolean;
  /** See StreamDecl.sameWalks. */
  sameWalks?: boolean;
  /** The stream's field tree (unmapped.ts): known fields and which of them columns read. */
  fields(): FieldNode;
  /** Fetches one page of a walk. */
  fetch(client: StreamClient, partition: PartitionSpec, state: FetchState): Promise<DrivenPage>;
}

/** A declared stream: the driver, plus its typed parts (tests feed it hand-made items). */
export interface Stream<T, S = unknown, M = unknown> extends StreamDriver {
  fetchPage: FetchPage<T, S, M>;
  /** A page's rows as plain objects per table. */
  normalize(page: StreamPage<T, M>, ctx: NormalizeContext): Record<string, Row[]>;
}

export const pageContext = (ctx: NormalizeContext): PageContext => ({
  partition: ctx.partition,
  snapshotAt: ctx.snapshotAt,
  snapshot: BigInt(ctx.snapshotAt),
  runId: ctx.runId,
  ...(ctx.contract === undefined ? {} : { contract: ctx.contract }),
});

/** Column vectors as rows (for tests and tools; the write path never builds rows). */
function batchRows(batch: ColumnBatch): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < batch.rows; i++) {
    const row: Row = {};
    batch.table.columns.forEach((c, k) => (row[c.name] = batch.columns[k][i]));
    out.push(row);
  }
  return out;
}

/** Empty column batches for the tables of a stream, by table name. */
export function emptyBatches(tables: readonly TableDef[]): Map<string, ColumnBatch> {
  return new Map(tables.map((table) => [table.name, { table, columns: table.columns.map(() => []), rows: 0 }]));
}

/** The schema of one item of an endpoint: the element of its list key, or its whole response. */
function itemSchemaOf(endpoint: Endpoint<never, unknown> & { listKey?: string }): z.ZodType | undefined {
  if (endpoint.listKey === undefined) return endpoint.schema;
  const shape = (endpoint.schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  return shape?.[endpoint.listKey];
}

/** The stream's field tree: the item schema's keys, and which of them its tables' columns read. */
function fieldTreeOf<T, S, M, D>(decl: StreamDecl<T, S, M, D>): FieldNode {
  const schema = decl.items ?? itemSchemaOf(decl.walks);
  // A list key's schema is the array: its element is the item.
  const tree = schemaTree(schema && (listElement(schema) ?? schema));
  const item = standIn(tree) as T;
  for (const source of decl.sources) source.probe?.(item);
  return finish(tree);
}

/** Declares a stream; the generic driver it returns walks, extracts and commits every stream the same way. */
export function defineStream<T, S = unknown, M = unknown, D = unknown>(decl: StreamDecl<T, S, M, D>): Stream<T, S, M> {
  const tables = [...new Map(decl.sources.map((s) => [s.table.name, s.table])).values()];
  // The first table filled from the items keeps their unmapped fields (a second table of the same items would repeat them).
  const keeper = decl.sources.find((s) => s.from === 'items');
  let tree: FieldNode | undefined;
  const scanOf = (page: StreamPage<T, M>): PageScan => scanItems(page.items, (tree ??= fieldTreeOf(decl)));
  const extract = (page: StreamPage<T, M>, ctx: NormalizeContext, into: ReadonlyMap<string, ColumnBatch>, scan?: PageScan, stored?: StoredPart): Extracted => {
    const x = pageContext(ctx);
    // The unmapped fields are found over the whole page (drift counts what the page held), keyed by item: a kept item finds its own.
    const unmapped = ctx.contract === 'discard' ? undefined : (scan ?? scanOf(page)).unmapped;
    const kept: PageContext = unmapped && unmapped.size > 0 ? { ...x, unmapped } : x;
    // An item the stream calls stored that carries fields no column maps (drift since it was stored) is written: its _extra follows.
    const split = joinSplits(ownStored(page, page.stored && (scan ?? scanOf(page)).unmapped), stored === undefined ? undefined : (items) => splitStored(decl, items, stored), page.items);
    const written = split === undefined ? page : { ...page, items: split.fresh };
    const left = split === undefined ? undefined : { ...page, items: split.stored };
    let rows = 0;
    let held = 0;
    for (const source of decl.sources) {
      const whole = source.from === 'page';
      const n = source.fill(whole ? page : written, source === keeper || source.from === 'children' ? kept : x, into.get(source.table.name)!);
      rows += n;
      held += n + (left === undefined || whole ? 0 : source.count(left, x));
    }
    return { rows, items: written.items.length, held };
  };
  const normalize = (page: StreamPage<T, M>, ctx: NormalizeContext): Record<string, Row[]> => {
    const batches = emptyBatches(tables);
    // The page's rows whole: what a sync leaves out as stored (StreamPage.stored) is still on the page.
    extract({ ...page, stored: undefined }, ctx, batches);
    return Object.fromEntries([...batches].map(([name, batch]) => [name, batchRows(batch)]));
  };
  const drive = (page: StreamPage<T, M>): DrivenPage => {
    let scan: PageScan | undefined;
    const scanned = () => (scan ??= scanOf(page));
    return {
      items: page.items.length,
      nextPageToken: page.nextPageToken,
      ...(page.newest !== undefined ? { newest: page.newest } : {}),
      ...(page.marks !== undefined ? { marks: page.marks } : {}),
      ...(page.cut === true ? { cut: true } : {}),
      orderKeys: () => (decl.orderKey ? page.items.map((i) => decl.orderKey!(i)).filter((k): k is number => k !== null && Number.isFinite(k)) : []),
      identities: () => (decl.identity ? page.items.map((i) => decl.identity!(i)) : []),
      keyed: () => (decl.orderKey && decl.identity ? keyedItems(page.items, decl.orderKey, decl.identity) : []),
      extract: (ctx, into, stored) => extract(page, ctx, into, scanned(), stored),
      digest: () => createHash('sha1').update(JSON.stringify(page.items)).digest('base64'),
      held: (ctx) => {
        const x = pageContext(ctx);
        return decl.sources.reduce((n, source) => n + source.count(page, x), 0);
      },
      drift: () => [...scanned().drift.values(), ...decl.sources.flatMap((s) => s.drift?.(page) ?? [])],
      keys: () => ({ counts: scanned().keys, items: scanned().items }),
      rows: (ctx) => normalize(page, ctx),
    };
  };
  const { name, mode, modeOf, walks, needsChainHeads, takesDiscovered, optIn, partitions, derive, cursor, unchanged, sameWalks, fetchPage } = decl;
  return {
    name,
    mode,
    ...(modeOf ? { modeOf } : {}),
    walks,
    tables,
    ...(needsChainHeads ? { needsChainHeads } : {}),
    ...(takesDiscovered ? { takesDiscovered } : {}),
    ...(optIn ? { optIn } : {}),
    ...(unchanged ? { unchanged } : {}),
    ...(sameWalks ? { sameWalks } : {}),
    ...(derive ? { derive } : {}),
    ...(cursor ? { cursor } : {}),
    // The plan a stream is asked with carries its own `derived` (the core asks derive, then partitions).
    partitions,
    fetchPage,
    normalize,
    fields: () => (tree ??= fieldTreeOf(decl)),
    fetch: async (client, partition, state) => drive(await fetchPage(client, partition, state as FetchState<S>)),
  };
}

/**
 * A page's items split into those no earlier walk stored (`fresh`) and those one did (StoredPart),
 * each in list order; undefined when every item is new. An item without a key, or a stream without
 * orderKey/identity, counts as new.
 */
function splitStored<T>(decl: Pick<StreamDecl<T>, 'orderKey' | 'identity'>, items: readonly T[], stored: StoredPart): { fresh: readonly T[]; stored: readonly T[] } | undefined {
  const { identity } = decl;
  if ('from' in stored) {
    const at = identity ? items.findIndex((item) => identity(item) === stored.from) : -1;
    return at < 0 ? undefined : { fresh: items.slice(0, at), stored: items.slice(at) };
  }
  const key = decl.orderKey;
  if (!key) return undefined;
  const { below } = stored;
  const at = identity && stored.at?.length ? new Set(stored.at) : undefined;
  const fresh: T[] = [];
  const old: T[] = [];
  for (const item of items) {
    const k = key(item);
    const isNew = k === null || !Number.isFinite(k) || k > below || (k === below && !at?.has(identity!(item)));
    (isNew ? fresh : old).push(item);
  }
  return old.length === 0 ? undefined : { fresh, stored: old };
}

/** A page's items split by the stream's own StreamPage.stored (an item with unmapped fields stays fresh); undefined when it leaves none out. */
function ownStored<T>(page: StreamPage<T>, unmapped: ReadonlyMap<object, string> | undefined): { fresh: readonly T[]; stored: readonly T[] } | undefined {
  const flags = page.stored;
  if (flags === undefined) return undefined;
  const fresh: T[] = [];
  const old: T[] = [];
  page.items.forEach((item, i) => (flags[i] === true && !unmapped?.has(item as object) ? old : fresh).push(item));
  return old.length === 0 ? undefined : { fresh, stored: old };
}

/** The stream's own split, then the walk's (StoredPart) over what the first left: one fresh list, one stored list. */
function joinSplits<T>(
  own: { fresh: readonly T[]; stored: readonly T[] } | undefined,
  walk: ((items: readonly T[]) => { fresh: readonly T[]; stored: readonly T[] } | undefined) | undefined,
  items: readonly T[],
): { fresh: readonly T[]; stored: readonly T[] } | undefined {
  const second = walk?.(own?.fresh ?? items);
  if (own === undefined) return second;
  return second === undefined ? own : { fresh: second.fresh, stored: [...own.stored, ...second.stored] };
}

function keyedItems<T>(items: readonly T[], orderKey: (item: T) => number | null, identity: (item: T) => string): [number, string][] {
  const out: [number, string][] = [];
  for (const item of items) {
    const k = orderKey(item);
    if (k !== null && Number.isFinite(k)) out.push([k, identity(item)]);
  }
  return out;
}

type ListItem<R, K extends keyof R> = R[K] extends readonly (infer I)[] ? I : never;

/**
 * The walk of a list endpoint: each page requests `request(partition, state)` with the page token and
 * size, and its items are the endpoint's list key. Returns the `walks` and `fetchPage` of a stream.
 */
export function listWalk<P extends PageParams, R extends ListResponse<K>, K extends string>(
  endpoint: ListEndpoint<P, R, K>,
  request: (partition: PartitionSpec, state: FetchState) => Omit<P, 'pageToken' | 'pageSize'>,
): { walks: ListEndpoint<P, R, K>; fetchPage: FetchPage<ListItem<R, K>> } {
  return {
    walks: endpoint,
    async fetchPage(client, partition, state) {
      // The request without its page fields, plus them: P by construction (TypeScript cannot see through Omit).
      const params = { ...request(partition, state), pageSize: state.pageSize, pageToken: state.pageToken ?? undefined } as P;
      const response = await client.call(endpoint, params);
      const items = response[endpoint.listKey] as readonly ListItem<R, K>[];
      const nextPageToken = response.nextPageToken ?? undefined;
      // A short page while more remain is the server's cut (pn.transactions: UTXO volume), priced apart in the CU optimum.
      return { items, nextPageToken, response, ...(items.length < state.pageSize && nextPageToken ? { cut: true } : {}) };
    },
  };
}

/**
 * The walk of a get endpoint over a list the partition holds in `params[list]` (addresses, tx hashes,
 * NFTs): one call per entry, the page token being the index of the next entry. Returns the `walks`
 * and `fetchPage` of a stream.
 */
export function getEach<P, R, T>(
  endpoint: Endpoint<P, R>,
  list: string,
  get: (client: StreamClient, partition: PartitionSpec, entry: string) => Promise<T>,
): { walks: Endpoint<P, R>; fetchPage: FetchPage<T> } {
  return {
    walks: endpoint,
    async fetchPage(client, partition, state) {
      const entries = partition.params[list] as string[];
      const index = Number(state.pageToken ?? 0);
      return { items: [await get(client, partition, entries[index])], nextPageToken: index + 1 < entries.length ? String(index + 1) : undefined };
    },
  };
}
