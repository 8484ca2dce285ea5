/**
 * Child process of bench/simulatorThroughput.ts: runs one simulator with the options given as
 * JSON in argv[2], reports its URLs over IPC and answers RSS queries, so the server's memory and
 * CPU are measured apart from the load generator.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { startSimulator } from '../tools/simulator/index.ts';
import type { SimulatorOptions } from '../tools/simulator/index.ts';

const opts = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions;
const sim = await startSimulator(opts);
const describe = sim.world.describe();
process.send!({ type: 'ready', baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, addresses: describe.evm.addresses, contracts: describe.evm.contracts, rss: process.memoryUsage().rss });
// CPU profiles of measured intervals only (not start-up or warm-up): profile-start, then
// profile-stop with a file name, written under BENCH_SIM_CPU_PROF.
const profiler = new Session();
profiler.connect();
async function profile(msg: { type: string; name?: string }): Promise<void> {
  if (msg.type === 'profile-start') {
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  } else {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(process.env.BENCH_SIM_CPU_PROF!, `${msg.name}.cpuprofile`), JSON.stringify(profile));
  }
  process.send!({ type: msg.type });
}

process.on('message', (msg: { type: string; name?: string }) => {
  if (msg.type === 'profile-start' || msg.type === 'profile-stop') void profile(msg);
  if (msg.type === 'rss') {
    // The world's memory, not the request log's (bounded, but up to 150k entries of the load).
    sim.resetStats();
    globalThis.gc?.();
    const mem = process.memoryUsage();
    process.send!({ type: 'rss', rss: mem.rss, heapUsed: mem.heapUsed });
  }
  if (msg.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ type: 'cpu', cpuMs: (user + system) / 1000 });
  }
  if (msg.type === 'stop') void sim.close().then(() => process.exit(0));
});
