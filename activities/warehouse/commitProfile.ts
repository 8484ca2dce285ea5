import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A debug profile of the warehouse's commits (bench only): with GLACIER_COMMIT_PROF=<file>, every
 * commit adds its statements' wall time and the process's CPU time over them (every thread: DuckDB's
 * and libuv's included, so concurrent JavaScript between awaits is counted too) per statement kind,
 * the rows each table was given, and the commit count and group sizes; the totals are rewritten to
 * the file after each commit, and appended with the time to <file>.jsonl (so a night's share is the
 * difference of two lines). `%p` in the name is the process id (several workers, one variable). Off
 * (one check per statement) without the variable.
 */
const file = process.env.GLACIER_COMMIT_PROF?.replaceAll('%p', String(process.pid)) || undefined;

interface Totals {
  calls: number;
  wallMs: number;
  cpuMs: number;
  /** Of cpuMs, what threads other than JavaScript's main one spent (DuckDB's statements run on libuv's pool): Linux only. */
  offMainMs: number;
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
  const round = (t: Totals) => ({ calls: t.calls, wallMs: Math.round(t.wallMs), cpuMs: Math.round(t.cpuMs), offMainMs: Math.round(t.offMainMs) });
  const out = { commits, batches: members, kinds: Object.fromEntries([...kinds].map(([k, t]) => [k, round(t)])), rows: Object.fromEntries(rows) };
  writeFileSync(file, JSON.stringify(out, null, 1));
  appendFileSync(`${file}.jsonl`, JSON.stringify({ t: Date.now(), ...out }) + '\n');
}
