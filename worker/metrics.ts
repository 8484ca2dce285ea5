import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SyncObserver } from '../activities/observe/syncObserver.ts';
import type { ClientStats } from '../activities/api/client.ts';
import type { WalkCursor } from '../activities/sync/walk.ts';
import { freePort } from './freePort.ts';
import type { Warehouse } from '../activities/warehouse/warehouse.ts';
import type { Logger } from './logger.ts';

type WarehouseMemory = Awaited<ReturnType<Warehouse['memoryUse']>>;

export interface WorkerMetricsOptions {
  /** Port of the /metrics endpoint; 0 picks a free one (tests). */
  port: number;
  /** Interface to listen on (default all: a Prometheus server scrapes from another host or container). */
  host?: string;
  /** CU per day of the key's tier per key, for `glacier_api_cu_left{window="day"}`. */
  cuPerDay: number;
  logger: Logger;
}

export interface WorkerMetrics {
  /** Where the page is served, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  /** Loopback address Temporal's Runtime exports its own metrics on; /metrics appends them. */
  temporalBindAddress: string;
  observer: SyncObserver;
  /** Reads the Data API client's counters at each scrape. */
  watchClient(stats: () => ClientStats): void;
  /** Reads DuckDB's buffer use at each scrape (Warehouse.memoryUse). */
  watchWarehouse(memory: () => Promise<WarehouseMemory>): void;
  close(): Promise<void>;
}

/**
 * The worker's Prometheus endpoint (prom-client): what the sync path reports through the injected
 * SyncObserver, the Data API client's counters read at scrape time, Node's process metrics, and
 * Temporal's own SDK metrics (its Runtime serves them on a loopback port; this page appends them,
 * so one scrape target carries both).
 */
export async function startWorkerMetrics(options: WorkerMetricsOptions): Promise<WorkerMetrics> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const byStream = ['stream'] as const;

  const rows = new Counter({ name: 'glacier_rows_total', help: 'Rows committed to the warehouse, per stream', labelNames: byStream, registers });
  const pages = new Counter({ name: 'glacier_pages_total', help: 'API pages committed to the warehouse, per stream', labelNames: byStream, registers });
  const commits = new Histogram({
    name: 'glacier_commit_duration_seconds',
    help: 'Latency of a batch commit (rows + checkpoint in one transaction, group-commit wait included), per stream',
    labelNames: byStream,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const batches = new Counter({ name: 'glacier_batches_total', help: 'Sync batches ended, per stream and outcome (done: walk finished, more: pages left, failed)', labelNames: ['stream', 'outcome'], registers });
  const inFlight = new Gauge({ name: 'glacier_partitions_in_flight', help: 'Partitions with a sync batch running now', labelNames: byStream, registers });
  const streamCu = new Counter({ name: 'glacier_stream_cu_total', help: 'Compute units of the successful API calls of each stream (weights; retries not included)', labelNames: byStream, registers });
  const streamCalls = new Counter({ name: 'glacier_stream_api_calls_total', help: 'Successful API calls per stream', labelNames: byStream, registers });
  const headLag = new Gauge({
    name: 'glacier_head_lag',
    help: 'Descending streams: API head seen when the current walk began minus the high-water mark stored complete, in the stream order key (block numbers for evm.blocks, heights or epoch seconds elsewhere); 0 once a walk meets it',
    labelNames: ['stream', 'partition'],
    registers,
  });
  const lastCommit = new Gauge({ name: 'glacier_partition_last_commit_timestamp_seconds', help: 'When a partition last committed (unix seconds)', labelNames: ['stream', 'partition'], registers });

  // The client's totals are read at scrape time; a collect callback turns them into counter increments.
  let clientStats: (() => ClientStats) | undefined;
  const fromClient = (name: string, help: string, read: (s: ClientStats) => number) => {
    let seen = 0;
    return new Counter({
      name,
      help,
      registers,
      collect() {
        if (!clientStats) return;
        const now = read(clientStats());
        if (now > seen) this.inc(now - seen);
        seen = now;
      },
    });
  };
  fromClient('glacier_api_requests_total', 'HTTP requests sent to the Data API and metrics services (every attempt)', (s) => s.requests);
  fromClient('glacier_api_responses_total', 'Validated API responses', (s) => s.responses);
  fromClient('glacier_api_retries_total', 'Requests retried (429, 5xx, network, bad bodies, page-token confirmations)', (s) => s.retries);
  fromClient('glacier_api_rate_limited_total', 'HTTP 429 responses', (s) => s.rateLimited);
  fromClient('glacier_api_cu_spent_total', 'Compute units charged (weights of requests the server answered with anything but 429)', (s) => s.cuSpent);
  fromClient('glacier_api_bytes_total', 'Response body bytes received', (s) => s.bytes);
  new Gauge({
    name: 'glacier_api_cu_left',
    help: 'Compute units left per API key in the current rate window and in the current day (Data API service)',
    labelNames: ['key', 'window'],
    registers,
    collect() {
      this.reset();
      for (const key of clientStats?.().limiter.data.keys ?? []) {
        this.set({ key: String(key.index), window: 'window' }, Math.max(0, key.limit - key.spent));
        if (Number.isFinite(options.cuPerDay)) this.set({ key: String(key.index), window: 'day' }, Math.max(0, options.cuPerDay - key.daySpent));
      }
    },
  });
  new Gauge({
    name: 'glacier_api_quota_paused',
    help: '1 while an API key waits for its quota window or day to reset',
    labelNames: ['key'],
    registers,
    collect() {
      this.reset();
      for (const key of clientStats?.().limiter.data.keys ?? []) this.set({ key: String(key.index) }, key.pausedUntil > Date.now() ? 1 : 0);
    },
  });

  let warehouseMemory: (() => Promise<WarehouseMemory>) | undefined;
  // One duckdb_memory() read per scrape, shared by the three gauges below (set when a scrape starts).
  let scrapedMemory: Promise<WarehouseMemory | undefined> = Promise.resolve(undefined);
  const fromMemory = (name: string, help: string, value: (m: WarehouseMemory) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const memory = await scrapedMemory;
        if (memory) this.set(value(memory));
      },
    });
  new Gauge({
    name: 'glacier_duckdb_memory_bytes',
    help: "DuckDB's buffer memory in use, by duckdb_memory() tag (warehouse.memoryLimit bounds the sum; RSS adds Node, Temporal and allocator overhead)",
    labelNames: ['tag'],
    registers,
    async collect() {
      this.reset();
      for (const { tag, bytes } of (await scrapedMemory)?.tags ?? []) if (bytes > 0) this.set({ tag }, bytes);
    },
  });
  fromMemory('glacier_duckdb_wal_bytes', "Size of the warehouse's write-ahead log (rows committed since the last checkpoint; the warehouse checkpoints past warehouse.checkpointThreshold)", (m) => m.walBytes);
  fromMemory('glacier_duckdb_memory_limit_bytes', "DuckDB's buffer limit in force (warehouse.memoryLimit, or the larger one of a checkpoint or export running now)", (m) => m.limitBytes);

  const observer: SyncObserver = {
    batchStarted(partition) {
      inFlight.inc({ stream: partition.stream });
    },
    batchFinished(partition, { result, failed }) {
      inFlight.dec({ stream: partition.stream });
      batches.inc({ stream: partition.stream, outcome: failed || !result ? 'failed' : result.done ? 'done' : 'more' });
      if (!result) return;
      const labels = { stream: partition.stream, partition: partition.id };
      lastCommit.set(labels, Date.parse(result.checkpoint.updatedAt) / 1000);
      const cursor = result.checkpoint.cursor as WalkCursor;
      if (result.checkpoint.complete && cursor.hwm !== undefined) headLag.set(labels, 0);
      else if (cursor.walkTop !== undefined && cursor.hwm !== undefined) headLag.set(labels, Math.max(0, cursor.walkTop - cursor.hwm));
    },
    committed(stream, commit) {
      rows.inc({ stream }, commit.rows);
      pages.inc({ stream }, commit.pages);
      commits.observe({ stream }, commit.seconds);
    },
    apiCall(stream, cu) {
      streamCalls.inc({ stream });
      streamCu.inc({ stream }, cu);
    },
  };

  const temporalPort = await freePort();
  const temporalBindAddress = `127.0.0.1:${temporalPort}`;
  const temporalUp = new Gauge({ name: 'glacier_temporal_sdk_metrics_up', help: "1 when Temporal's SDK metrics were read for this scrape", registers });

  /** Temporal's exposition text, or '' when its Runtime exports none (installed elsewhere without metrics). */
  async function temporalMetrics(): Promise<string> {
    try {
      const response = await fetch(`http://${temporalBindAddress}/metrics`, { signal: AbortSignal.timeout(2_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      temporalUp.set(1);
      return await response.text();
    } catch {
      temporalUp.set(0);
      return '';
    }
  }

  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || !request.url?.startsWith('/metrics')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('glacier-etl worker: metrics are at /metrics\n');
      return;
    }
    void (async () => {
      const temporal = await temporalMetrics();
      scrapedMemory = warehouseMemory ? warehouseMemory() : Promise.resolve(undefined);
      const own = await registry.metrics();
      response.writeHead(200, { 'content-type': registry.contentType }).end(temporal ? `${own}\n${temporal}` : own);
    })().catch((error: unknown) => {
      options.logger.warn({ err: { message: (error as Error).message } }, 'metrics scrape failed');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('metrics unavailable\n');
    });
  });
  const host = options.host ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`metrics port ${options.port}: ${error.code === 'EADDRINUSE' ? 'already in use' : error.message} (set worker.metricsPort or GLACIER_METRICS_PORT)`)),
    );
    server.listen(options.port, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/metrics`;
  options.logger.info({ url, temporal: temporalBindAddress }, 'metrics served');

  return {
    url,
    temporalBindAddress,
    observer,
    watchClient(stats) {
      clientStats = stats;
    },
    watchWarehouse(memory) {
      warehouseMemory = memory;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
