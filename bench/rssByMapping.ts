/**
 * A process's resident memory by kind of mapping, sampled every half second (bench/README.md,
 * "Nights: what grows a night"): glibc's main heap (`[heap]`), anonymous mappings that start on a
 * 64 MiB boundary (where glibc puts its threads' arenas), other anonymous mappings (jemalloc's, which
 * holds DuckDB's buffers, and V8's heap), and file mappings (code). Every `--every` seconds it prints
 * the sample now and the largest sample since the last line, in MB.
 *
 *   npm run bench:nights -- --nights 60 --skip-scaling --skip-idle --checks none &
 *   npx tsx bench/rssByMapping.ts --match 'glacier-etl.js --config .* worker' --seconds 480
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { match: { type: 'string' }, seconds: { type: 'string', default: '600' }, every: { type: 'string', default: '30' } } });
if (!values.match) {
  console.error("usage: npx tsx bench/rssByMapping.ts --match <pgrep -f pattern of the process> [--seconds 600] [--every 30]");
  process.exit(2);
}
const ARENA = 0x4000000n;

/** The first process matching that is not this sampler (its own command line, and tsx's and npx's above it, hold the pattern), or undefined. */
function find(): number | undefined {
  const sampler = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('rssByMapping');
    } catch {
      return true;
    }
  };
  try {
    return execFileSync('pgrep', ['-f', values.match!], { encoding: 'utf8' }).split('\n').map(Number).find((p) => p > 0 && !sampler(p));
  } catch {
    return undefined;
  }
}

/** Resident kB by kind of mapping, or undefined once the process is gone. */
function sample(pid: number): Record<string, number> | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const kb: Record<string, number> = {};
  let kind = '';
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      const [start, size, name] = [BigInt(`0x${m[1]}`), BigInt(`0x${m[2]}`) - BigInt(`0x${m[1]}`), m[4].trim()];
      kind = name === '[heap]' ? 'glibc main heap' : name.startsWith('/') ? 'files' : name ? name : start % ARENA === 0n && size >= 0x100000n && m[3] === 'rw-p' ? 'glibc arenas' : 'other anonymous';
    } else if (line.startsWith('Rss:')) kb[kind] = (kb[kind] ?? 0) + Number(line.split(/\s+/)[1]);
  }
  return kb;
}

const mb = (kb: Record<string, number>) => Object.entries(kb).filter(([, v]) => v >= 1024).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${Math.round(v / 1024)}`).join(', ');
const total = (kb: Record<string, number>) => Object.values(kb).reduce((a, b) => a + b, 0);
const t0 = Date.now();
let [pid, peak, printed] = [undefined as number | undefined, {} as Record<string, number>, Date.now()];
while (Date.now() - t0 < Number(values.seconds) * 1000) {
  pid ??= find();
  const now = pid === undefined ? undefined : sample(pid);
  if (pid !== undefined && now === undefined) pid = undefined;
  if (now) {
    if (total(now) > total(peak)) peak = now;
    if (Date.now() - printed >= Number(values.every) * 1000) {
      console.log(`${Math.round((Date.now() - t0) / 1000)} s  now: ${mb(now)}  |  peak since the last line (${Math.round(total(peak) / 1024)} MB): ${mb(peak)}`);
      [peak, printed] = [{}, Date.now()];
    }
  }
  await new Promise((r) => setTimeout(r, 500));
}
