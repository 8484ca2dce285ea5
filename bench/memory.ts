/**
 * Worker memory: peak RSS of a real worker process (`node bin/glacier-etl.js --config <file> worker`
 * against a dev server started here) while it backfills a world of about BENCH_MEMORY_ROWS rows,
 * then one twice that size. RSS is sampled from /proc/<pid>/status (VmRSS, and VmHWM for the peak);
 * rows are counted in the DuckDB file afterwards.
 *
 *   npx tsx bench/memory.ts            (BENCH_MEMORY_ROWS=2000000 by default; 15000 for a quick look;
 *                                      BENCH_MEMORY_LIMIT=256MB measures that warehouse.memoryLimit, the config default otherwise)
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';
import { DevServer } from '../worker/devServer.ts';
import { warehousePath } from '../worker/paths.ts';
import { pipelineWorkflow } from '../workflows/pipeline.ts';
import { summarize } from '../cli/runPipeline.ts';
import { WORLD_SIZES } from '../tools/simulator/index.ts';
import { benchConfig, countRows, envNumber, fmt, readStatusKb, startBenchSimulator, tempDir, UNLIMITED } from './benchWorld.ts';

export interface MemoryResult {
  targetRows: number;
  rows: number;
  pages: number;
  /** VmHWM when the worker reports it is running (runtime, DuckDB, workflow bundle), before any work. */
  startupPeakRssMb: number;
  peakRssMb: number;
  /** RSS at the end of the backfill (after the last batch). */
  lastRssMb: number;
  ms: number;
}

const MAX_TXS_PER_BLOCK = 20;
/** Rows per block of the first EVM chain: the block, and 0..20 transactions (10 on average). */
const ROWS_PER_BLOCK = 1 + MAX_TXS_PER_BLOCK / 2;

/** One backfill of evm.blocks + evm.transactions of one chain sized for `targetRows`, by a worker child process. */
export async function runMemory(server: DevServer, targetRows: number, partitionConcurrency: number, maxPagesPerBatch: number): Promise<MemoryResult> {
  const evmBlocks = Math.ceil(targetRows / ROWS_PER_BLOCK);
  const sim = await startBenchSimulator({ seed: 3, size: { ...WORLD_SIZES.small, validators: 20, evmBlocks, maxTxsPerBlock: MAX_TXS_PER_BLOCK }, rateLimits: UNLIMITED });
  const tmp = tempDir('memory');
  try {
    const config = benchConfig(sim, tmp.dir, { streams: ['evm.blocks', 'evm.transactions'], partitionConcurrency, firstChainOnly: true });
    const taskQueue = `bench-memory-${targetRows}-${Date.now()}`;
    const { temporalAddress: _a, apiKeyCount: _k, ...fileConfig } = config;
    const configFile = join(tmp.dir, 'config.json');
    const memoryLimit = process.env.BENCH_MEMORY_LIMIT;
    const warehouseConfig = memoryLimit ? { ...fileConfig.warehouse, memoryLimit } : fileConfig.warehouse;
    writeFileSync(configFile, JSON.stringify({ ...fileConfig, warehouse: warehouseConfig, temporal: { ...fileConfig.temporal, taskQueue } }));
    const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: server.address, LOG_LEVEL: 'info' };
    delete env.GLACIER_API_KEY;
    delete env.GLACIER_DATA_DIR;
    const bin = fileURLToPath(new URL('../bin/glacier-etl.js', import.meta.url));
    const worker = spawn(process.execPath, [bin, '--config', configFile, 'worker'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // The worker logs at info so "worker running" marks the end of start-up; only warnings are passed on.
    let startupRssKb = 0;
    const running = new Promise<void>((resolve) => {
      createInterface({ input: worker.stderr! }).on('line', (line) => {
        if (line.includes('"msg":"worker running"')) {
          startupRssKb = readStatusKb(worker.pid!, 'VmHWM');
          resolve();
        } else if (/"level":(4|5|6)\d/.test(line) || !line.startsWith('{')) process.stderr.write(`${line}\n`);
      });
      void exited.then(() => resolve());
    });
    let peakKb = 0;
    let lastKb = 0;
    const sampler = setInterval(() => {
      lastKb = readStatusKb(worker.pid!, 'VmRSS');
      peakKb = Math.max(peakKb, readStatusKb(worker.pid!, 'VmHWM'), lastKb);
    }, 250);
    await running;
    const connection = await Connection.connect({ address: server.address });
    let status;
    const started = performance.now();
    try {
      const client = new Client({ connection });
      status = await client.workflow.execute(pipelineWorkflow, {
        taskQueue,
        workflowId: `bench-memory-${taskQueue}`,
        args: [{ mode: 'backfill', streams: config.streams, partitionConcurrency, maxPagesPerBatch, exportParquet: false }],
      });
    } finally {
      await connection.close();
    }
    const ms = performance.now() - started;
    lastKb = readStatusKb(worker.pid!, 'VmRSS') || lastKb;
    peakKb = Math.max(peakKb, readStatusKb(worker.pid!, 'VmHWM'));
    clearInterval(sampler);
    worker.kill('SIGTERM');
    await exited;
    const warehouse = await openWarehouse(warehousePath(config.dataDir));
    const rows = (await countRows(warehouse)).total;
    await warehouse.close();
    return { targetRows, rows, pages: summarize(status).pages, startupPeakRssMb: startupRssKb / 1024, peakRssMb: peakKb / 1024, lastRssMb: lastKb / 1024, ms };
  } finally {
    await sim.close();
    tmp.remove();
  }
}

/** Both sizes on one dev server. */
export async function runMemoryPair(targetRows: number, partitionConcurrency: number, maxPagesPerBatch: number): Promise<[MemoryResult, MemoryResult]> {
  const state = tempDir('memory-temporal');
  const server = await new DevServer({ dataDir: state.dir, headless: true }).start();
  try {
    const small = await runMemory(server, targetRows, partitionConcurrency, maxPagesPerBatch);
    const large = await runMemory(server, targetRows * 2, partitionConcurrency, maxPagesPerBatch);
    return [small, large];
  } finally {
    await server.stop();
    state.remove();
  }
}

/** The size: at least 2 million rows, then twice that (about 11 minutes here); BENCH_MEMORY_ROWS shrinks it. */
export const MEMORY_ROWS_DEFAULT = 2_000_000;

if (import.meta.url === `file://${process.argv[1]}`) {
  const pair = await runMemoryPair(envNumber('BENCH_MEMORY_ROWS', MEMORY_ROWS_DEFAULT), envNumber('BENCH_PARTITIONS', 6), envNumber('BENCH_PAGES_PER_BATCH', 20));
  for (const r of pair) {
    console.log(`memory: ${fmt(r.rows)} rows (${fmt(r.pages)} pages) in ${fmt(r.ms / 1000, 1)} s: worker peak RSS ${fmt(r.peakRssMb)} MB (start-up peak ${fmt(r.startupPeakRssMb)} MB), at the end ${fmt(r.lastRssMb)} MB`);
  }
  console.log(`peak RSS ratio (2x rows / 1x rows): ${fmt(pair[1].peakRssMb / pair[0].peakRssMb, 2)}`);
}
