import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A debug profile of the warehouse's commits (bench only): with GLACIER_COMMIT_PROF=<file>, every
 * commit adds its statements' wall time and the process's CPU time over them (every thread: DuckDB's
 * and libuv's included, so concurrent JavaScript between awaits is counted too) per statement kind,
 * the rows each table was given, and the commit count and group sizes; the totals are rewritten to
 * the file after each commit, and appended with the time to <file>.jsonl (so a night's share is the
 * difference of two lines). `%p` in the name is the process id (several workers, one variable). Off
 * (one check per statement) without the variable. With GLACIER_COMMIT_PROF_RSS=1 too (Linux), each
 * step also records the process's peak RSS while it ran (VmHWM reset as it starts; steps in sequence,
 * as the export's are; an enclosing step's peak includes its inner steps'), the largest since the
 * last line written (bench/exportSteps.ts --rss). Those resets also reset the VmHWM others read of
 * the process (bench:nights' peak figures), so a run with it measures steps, not nights.
 */
const file = process.env.GLACIER_COMMIT_PROF?.replaceAll('%p', String(process.pid)) || undefined;
const rss = file !== undefined && process.env.GLACIER_COMMIT_PROF_RSS === '1';
/** With GLACIER_COMMIT_PROF_STATEMENTS=1 too, a merge's statements run one by one, each profiled as `<kind>:<n>:<its first words>`. */
export const profileStatements = file !== undefined && process.env.GLACIER_COMMIT_PROF_STATEMENTS === '1';

interface Totals {
  calls: number;
  wallMs: number;
  cpuMs: number;
  /** Of cpuMs, what threads other than JavaScript's main one spent (DuckDB's statements run on libuv's pool): Linux only. */
  offMainMs: number;
  /** GLACIER_COMMIT_PROF_RSS: the peak RSS kB while a call ran, and the most a call raised it above its start, largest since the last line written. */
  peakKb?: number;
  raiseKb?: number;
}

/** A kB figure of this process from /proc/self/status (VmRSS; VmHWM, its peak since it started or was last reset). */
const statusKb = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
/** Of each step running, the largest peak RSS its inner steps saw (their resets hide it from its own reading). */
const open: number[] = [];

function peakStart(): void {
  if (open.length) open[open.length - 1] = Math.max(open[open.length - 1], statusKb('VmHWM'));
  writeFileSync('/proc/self/clear_refs', '5');
  open.push(0);
}

function peakEnd(): number {
  const peak = Math.max(open.pop() ?? 0, statusKb('VmHWM'));
  if (open.length) open[open.length - 1] = Math.max(open[open.length - 1], peak);
  return peak;
}

/** CPU ms the process's main thread has used (Linux's per-thread schedstat), or undefined where it is not readable. */
function mainThreadMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const kinds = new Map<string, Totals>();
const rows = new Map<string, number>();
let commits = 0;
let members = 0;

/** Runs fn, adding its time under kind when profiling. */
export async function profiled<T>(kind: string, fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = mainThreadMs();
  const r0 = rss ? statusKb('VmRSS') : 0;
  if (rss) peakStart();
  try {
    return await fn();
  } finally {
    const c = process.cpuUsage(c0);
    const m1 = mainThreadMs();
    const k = kinds.get(kind) ?? { calls: 0, wallMs: 0, cpuMs: 0, offMainMs: 0 };
    k.calls += 1;
    k.wallMs += performance.now() - t0;
    k.cpuMs += (c.user + c.system) / 1000;
    if (m0 !== undefined && m1 !== undefined) k.offMainMs += (c.user + c.system) / 1000 - (m1 - m0);
    if (rss) {
      const peak = peakEnd();
      k.peakKb = Math.max(k.peakKb ?? 0, peak);
      k.raiseKb = Math.max(k.raiseKb ?? 0, peak - r0);
    }
    kinds.set(kind, k);
  }
}

/** Counts one table's rows given to a commit. */
export function profileRows(table: string, n: number): void {
  if (file) rows.set(table, (rows.get(table) ?? 0) + n);
}

/** Ends one commit of `size` batches and writes the totals so far (size 0: writes them, another piece of work, an export, having ended). */
export function profileCommit(size: number): void {
  if (!file) return;
  if (size > 0) commits += 1;
  members += size;
  const round = (t: Totals) => ({ calls: t.calls, wallMs: Math.round(t.wallMs), cpuMs: Math.round(t.cpuMs), offMainMs: Math.round(t.offMainMs), ...(t.peakKb ? { peakKb: t.peakKb, raiseKb: t.raiseKb } : {}) });
  const out = { commits, batches: members, kinds: Object.fromEntries([...kinds].map(([k, t]) => [k, round(t)])), rows: Object.fromEntries(rows) };
  for (const t of kinds.values()) [t.peakKb, t.raiseKb] = [undefined, undefined];
  writeFileSync(file, JSON.stringify(out, null, 1));
  appendFileSync(`${file}.jsonl`, JSON.stringify({ t: Date.now(), ...out }) + '\n');
}
