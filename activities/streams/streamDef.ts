import type { Endpoint } from '../api/endpoint.ts';
import type { RequestMeter } from '../api/requestMeter.ts';
import type { PartitionSpec, SyncMode } from '../sync/types.ts';
import type { WalkCursor } from '../sync/walk.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { StreamName } from '../../common/streamNames.ts';
import type { Row, TableDef } from '../warehouse/tableDef.ts';

/** What a stream needs from the Data API client: one validated call of one endpoint. */
export interface StreamClient {
  /**
   * `options.partition` is the client's fair-share key: waiting requests are served round-robin
   * across partitions. `options.meter` counts the attempts and CU of the call.
   */
  call<P, R>(endpoint: Endpoint<P, R>, params: P, options?: { partition?: string; meter?: RequestMeter }): Promise<R>;
}

/** One fetched page: its items, and the token of the next page (absent on the last). */
export interface StreamPage<T = unknown> {
  items: T[];
  nextPageToken?: string;
  /** The whole response, for values outside the item list (e.g. nativeTokenBalance). */
  response?: unknown;
  /**
   * Marks a stream that steers its own incremental walk reports (pn.utxos): the identity of the
   * walk's newest item, and the latest event time the page showed (activities/sync/walk.ts).
   */
  marks?: { newest?: string; eventsMax?: number; firsts?: Record<string, string>; collect?: string[]; listed?: number; finals?: string[] };
  /** The server ended this page before the requested size while more remain (counted apart in the CU optimum). */
  cut?: boolean;
}

/** Where the walk is: the page token to request (null = first page) and the stream's request bounds. */
export interface FetchState {
  pageToken: string | null;
  /** range streams: inclusive lower bound of this walk (block number or epoch seconds). */
  from?: number;
  pageSize: number;
  /** The walk cursor (read-only): streams that steer their own incremental walk read their marks here. */
  cursor?: Readonly<WalkCursor>;
}

/** Values every row of a batch is stamped with. */
export interface NormalizeContext {
  partition: PartitionSpec;
  snapshotAt: number;
  runId: string;
}

/** Derived inputs for partitions that depend on earlier results (node ids found by pn.validators). */
export interface Discovered {
  validatorNodeIds?: Map<string, string[]>;
  /** Latest block per EVM chain id, read at planning time (block-range streams split their backfill by it). */
  chainHeads?: Map<string, number>;
  /** The streams this run plans (a stream may lean on another walked in the same run: pn.utxos on pn.transactions). */
  streams?: readonly StreamName[];
}

export interface StreamDef<T = unknown> {
  name: StreamName;
  /** The list or get endpoint walked, e.g. "GET /v1/chains/{chainId}/blocks". */
  endpoint: string;
  mode: SyncMode;
  /** When partitions of one stream walk differently (pn.transactions: chain-wide vs per address). */
  modeOf?(partition: PartitionSpec): SyncMode;
  /**
   * The endpoint a walk calls once per page: its weight (CU per request) and largest page are read
   * from there, never copied into the stream.
   */
  walks: Endpoint<never, unknown> & { maxPageSize?: number };
  /** Every table the normalizer fills, parent first. */
  tables: TableDef[];
  /** Block-range streams: planning reads each chain's head first (one blocks page per chain). */
  needsChainHeads?: boolean;
  /** Derived streams also plan partitions from discovered values (second wave of a pipeline run). */
  takesDiscovered?: boolean;
  /** Partitions from the config (and, for derived streams, from discovered values). */
  partitions(config: ResolvedConfig, discovered?: Discovered): PartitionSpec[];
  fetchPage(client: StreamClient, partition: PartitionSpec, state: FetchState): Promise<StreamPage<T>>;
  /** Validated items -> rows per table name. */
  normalize(page: StreamPage<T>, ctx: NormalizeContext): Record<string, Row[]>;
  /**
   * descending-until-known and range: the item's position in the walk order (block number, height or
   * epoch seconds), compared with the stored high-water mark.
   */
  orderKey?(item: T): number | null;
  /**
   * snapshot-merge streams whose list is newest-first and append-only (an item never changes once
   * listed, new items appear on top): a stable identity of an item. A sync walk ends at the page
   * that lists the newest item of the partition's last complete walk (activities/sync/walk.ts).
   */
  identity?(item: T): string;
  /**
   * A sync's new walk of this partition: true when its cursor alone shows that nothing can have
   * changed (every configured key read already and final), so the walk completes without a request.
   */
  unchanged?(partition: PartitionSpec, cursor: Readonly<WalkCursor>): boolean;
}
