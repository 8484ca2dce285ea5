import { perThousand, type StreamCost } from '../activities/sync/streamCosts.ts';

const num = (n: number | null, digits = 0) => (n === null ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

/**
 * The CU table of `status` (and bench:quota): per stream, CU per 1,000 items against the optimum
 * (weight over the largest page, see activities/sync/streamCosts.ts), CU outside the walks
 * (retries charged again, planning's head probes) and 429s, and what the last run cost.
 */
export function costTable(costs: StreamCost[]): string {
  const streams = costs.filter((c) => c.stream !== 'plan');
  const plan = costs.find((c) => c.stream === 'plan');
  const width = Math.max(6, ...streams.map((c) => c.stream.length));
  const head = `${'stream'.padEnd(width)}  ${'items'.padStart(10)}  ${'CU'.padStart(11)}  ${'CU/1k'.padStart(8)}  ${'optimum'.padStart(8)}  ${'ratio'.padStart(6)}  ${'overhead'.padStart(8)}  ${'429s'.padStart(5)}  last run CU (items, mode)`;
  const lines = [head];
  for (const c of streams) {
    const ratio = c.optimumCu > 0 ? c.walkCu / c.optimumCu : null;
    const last = c.lastRun ? `${num(c.lastRun.cu)} (${num(c.lastRun.items)}, ${c.lastRun.mode})` : '-';
    lines.push(
      `${c.stream.padEnd(width)}  ${num(c.items).padStart(10)}  ${num(c.cu).padStart(11)}  ${num(perThousand(c.cu, c.items), 1).padStart(8)}  ${num(perThousand(c.optimumCu, c.items), 1).padStart(8)}  ${num(ratio, 2).padStart(6)}  ${num(c.cu - c.walkCu).padStart(8)}  ${num(c.rejected429).padStart(5)}  ${last}`,
    );
  }
  if (plan) lines.push(`${'planning'.padEnd(width)}  ${''.padStart(10)}  ${num(plan.cu).padStart(11)}  (head probes: ${num(plan.requests)} requests, outside the walks)`);
  return `${lines.join('\n')}\n`;
}
