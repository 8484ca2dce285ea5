/**
 * A child process measured from outside (bench:peer, bench:release): wall time, CPU of the whole
 * tree (/usr/bin/time reports the reaped children too: Temporal's dev server), the dev server's own
 * CPU and the tree's peak resident memory, sampled every 100 ms from /proc.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { USER_HZ } from './benchWorld.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** One look at a process tree from /proc: its resident memory, and the CPU seconds so far of each descendant Temporal dev server. */
export function treeSample(root: number): { rssBytes: number; temporalCpu: Map<number, number> } {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  const temporal = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(name);
      const ppid = Number(fields[1]);
      rss.set(pid, Number(fields[21]) * 4096);
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'temporal') temporal.set(pid, (Number(fields[11]) + Number(fields[12])) / USER_HZ);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // the process ended while we looked
    }
  }
  let rssBytes = 0;
  const temporalCpu = new Map<number, number>();
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    rssBytes += rss.get(pid) ?? 0;
    if (temporal.has(pid)) temporalCpu.set(pid, temporal.get(pid)!);
    stack.push(...(children.get(pid) ?? []));
  }
  return { rssBytes, temporalCpu };
}

export interface Measured {
  seconds: number;
  cpuSeconds: number;
  /** CPU of the Temporal dev servers in the tree, as last sampled (every 100 ms) before they ended. */
  temporalCpuSeconds: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time (CPU of the reaped tree) while sampling the tree's RSS; stderr too, for a caller that reads its log. */
export function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<Measured & { stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'TIME %U %S', cmd, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let peak = 0;
    const temporalCpu = new Map<number, number>();
    const sampler = setInterval(() => {
      const sample = treeSample(child.pid!);
      peak = Math.max(peak, sample.rssBytes);
      for (const [pid, cpu] of sample.temporalCpu) temporalCpu.set(pid, cpu);
    }, 100);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - t0) / 1000;
      const time = /TIME ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || !time) return reject(new Error(`${cmd} exited ${code}: ${stderr.trim().split('\n').slice(-40).join('\n')}`));
      const temporalCpuSeconds = [...temporalCpu.values()].reduce((a, b) => a + b, 0);
      resolve({ seconds, cpuSeconds: Number(time[1]) + Number(time[2]), temporalCpuSeconds, peakRssMb: peak / 2 ** 20, stdout, stderr });
    });
  });
}
