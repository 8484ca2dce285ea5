import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { Client, Connection } from '@temporalio/client';
import { DuckDBInstance } from '@duckdb/node-api';
import { startSimulator, type Simulator } from '../../tools/simulator/index.ts';
import { configForWorld } from '../../cli/demoConfig.ts';
import { freePort } from '../../worker/freePort.ts';
import { warehousePath } from '../../worker/paths.ts';
import { pipelineWorkflow, type PipelineStatus } from '../../workflows/pipeline.ts';
import { WorkerProcess } from '../reliability/workerProcess.ts';
import { ConfigError, resolveConfig, validateConfig } from '../../worker/config.ts';
import { startWorkerMetrics } from '../../worker/metrics.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';

/** Sum of every sample of a metric (all label sets) in Prometheus text, or undefined when absent. */
function total(text: string, name: string): number | undefined {
  const samples = text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
  if (samples.length === 0) return undefined;
  return samples.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('worker metrics (a real `glacier-etl worker` process, scraped during a backfill)', () => {
  let sim: Simulator;
  let dir: string;
  let worker: WorkerProcess;
  let connection: Connection;
  let metricsUrl: string;
  let taskQueue: string;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, size: 'tiny', clock: () => Date.UTC(2026, 10, 1, 12) });
    dir = mkdtempSync(join(tmpdir(), 'glacier-metrics-'));
    const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: join(dir, 'data'), addressesPerChain: 2 });
    base.api.pageSize = 20;
    taskQueue = `metrics-${randomUUID()}`;
    base.temporal.taskQueue = taskQueue;
    const configPath = join(dir, 'config.yaml');
    writeFileSync(configPath, toYaml(base));
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = new WorkerProcess({ TEMPORAL_ADDRESS: inject('temporalAddress'), GLACIER_METRICS_PORT: String(port), LOG_LEVEL: 'info' }, configPath);
    worker.start();
    connection = await Connection.connect({ address: inject('temporalAddress') });
  });

  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves glacier_* and temporal_* metrics; glacier_rows_total rises during the backfill and ends at the rows committed', async () => {
    const scrape = async () => {
      const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(5_000) });
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return response.text();
    };
    // The worker process needs a moment to listen.
    let first = '';
    for (let i = 0; i < 200 && !first; i++) first = await scrape().catch(() => new Promise<string>((r) => setTimeout(() => r(''), 250)));
    expect(first, worker.logs.join('')).toContain('glacier_partitions_in_flight');
    expect(total(first, 'glacier_rows_total') ?? 0).toBe(0);

    const client = new Client({ connection });
    const handle = await client.workflow.start(pipelineWorkflow, {
      taskQueue,
      workflowId: `metrics-backfill-${taskQueue}`,
      args: [{ mode: 'backfill', partitionConcurrency: 3, maxPagesPerBatch: 1, exportParquet: false }],
    });
    const seen: number[] = [];
    let finished = false;
    const result = handle.result().finally(() => (finished = true));
    while (!finished) {
      seen.push(total(await scrape(), 'glacier_rows_total') ?? 0);
      await new Promise((r) => setTimeout(r, 150));
    }
    const status: PipelineStatus = await result;
    expect(status.partitions.filter((p) => p.state !== 'done')).toEqual([]);
    const last = await scrape();
    seen.push(total(last, 'glacier_rows_total') ?? 0);

    // Rising: several distinct, non-decreasing values between 0 and the final total.
    const distinct = [...new Set(seen)];
    expect(distinct.length, JSON.stringify(seen)).toBeGreaterThan(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const rows = status.partitions.reduce((n, p) => n + p.rows, 0);
    expect(seen.at(-1)).toBe(rows);
    expect(total(last, 'glacier_pages_total')).toBe(status.partitions.reduce((n, p) => n + p.pages, 0));
    expect(total(last, 'glacier_api_requests_total')).toBeGreaterThan(0);
    expect(total(last, 'glacier_api_cu_spent_total')).toBeGreaterThan(0);
    expect(total(last, 'glacier_stream_cu_total')).toBeGreaterThan(0);
    expect(total(last, 'glacier_commit_duration_seconds_count')).toBeGreaterThan(0);
    expect(total(last, 'glacier_partitions_in_flight')).toBe(0);
    expect(last).toMatch(/^glacier_api_cu_left\{key="0",window="window"\} \d+/m);
    expect(last).toMatch(/^glacier_head_lag\{stream="evm\.blocks",partition="evm\.blocks\/[^"]+"\} 0$/m);
    // Temporal's own SDK metrics, from its Runtime, on the same page.
    expect(last).toContain('glacier_temporal_sdk_metrics_up 1');
    // DuckDB's buffer by tag, bounded by the limit in force (the default 128MB between checkpoints).
    expect(total(last, 'glacier_duckdb_memory_limit_bytes')).toBe(128_000_000);
    expect(total(last, 'glacier_duckdb_memory_bytes')).toBeGreaterThan(0);
    expect(total(last, 'glacier_duckdb_memory_bytes')).toBeLessThanOrEqual(128_000_000);
    expect(last).toMatch(/^glacier_duckdb_memory_bytes\{tag="[A-Z_]+"\} \d+/m);
    expect(last).toMatch(/^temporal_\w+/m);

    // The counter agrees with the warehouse's own bookkeeping (read after the worker releases the file).
    await worker.stop();
    const db = await (await DuckDBInstance.create(warehousePath(join(dir, 'data')), { access_mode: 'READ_ONLY' })).connect();
    const stored = (await db.runAndReadAll('SELECT sum(rows)::BIGINT AS n FROM _glacier_sync_runs')).getRowObjectsJS()[0].n;
    db.closeSync();
    expect(Number(stored)).toBe(rows);
  });

  it('the port comes from worker.metricsPort or GLACIER_METRICS_PORT; a bad value or a taken port is one clear line', async () => {
    const base = validateConfig({}, 'test');
    expect(resolveConfig(base, {}).worker.metricsPort).toBeUndefined();
    expect(resolveConfig(base, { GLACIER_METRICS_PORT: '9464' }).worker.metricsPort).toBe(9464);
    expect(() => resolveConfig(base, { GLACIER_METRICS_PORT: 'abc' })).toThrow(ConfigError);
    expect(() => resolveConfig(base, { GLACIER_METRICS_PORT: '70000' })).toThrow(/worker\.metricsPort/);
    const { logger } = capturedLogger('info');
    const first = await startWorkerMetrics({ port: 0, host: '127.0.0.1', cuPerDay: 1, logger });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startWorkerMetrics({ port, host: '127.0.0.1', cuPerDay: 1, logger })).rejects.toThrow(`metrics port ${port}: already in use`);
      expect((await fetch(first.url.replace('/metrics', '/'))).status).toBe(404);
    } finally {
      await first.close();
    }
  });
});
