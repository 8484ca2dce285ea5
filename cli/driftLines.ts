import type { DriftRow } from '../activities/warehouse/warehouse.ts';

/** `status`'s schema drift section: discovered chains, then one line per (stream, kind, path). */
export function driftLines(drift: readonly DriftRow[], chains: readonly DriftRow[]): string {
  const lines: string[] = [];
  for (const c of chains) lines.push(`chain ${c.path} ${c.sample ?? ''}: discovered, not configured (since run ${c.firstRun})`.replace(' :', ':'));
  const rows = drift.filter((d) => d.kind !== 'new_chain');
  if (rows.length > 0) {
    const width = Math.max(6, ...rows.map((d) => d.stream.length));
    const kind = Math.max(4, ...rows.map((d) => d.kind.length));
    lines.push(`schema drift (docs/drift.md)`, `${'stream'.padEnd(width)}  ${'kind'.padEnd(kind)}  ${'count'.padStart(7)}  path and sample`);
    for (const d of rows) lines.push(`${d.stream.padEnd(width)}  ${d.kind.padEnd(kind)}  ${String(d.count).padStart(7)}  ${d.path}${d.sample ? `  e.g. ${d.sample}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
