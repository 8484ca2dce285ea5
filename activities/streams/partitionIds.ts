import { createHash } from 'node:crypto';

/**
 * Partition ids name workflows, so they must be deterministic and short and use only safe characters.
 * A set of addresses or node ids is named by a short hash of its sorted members.
 */
export function setTag(prefix: string, members: readonly string[]): string {
  const sorted = [...members].sort();
  if (sorted.length === 1 && /^[A-Za-z0-9-]{1,80}$/.test(sorted[0])) return sorted[0];
  return `${prefix}-${sorted.length}-${createHash('sha256').update(sorted.join(',')).digest('hex').slice(0, 12)}`;
}

export function partitionId(...parts: (string | number)[]): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9._:-]/g, '_')).join('/');
}

/** Splits a list into deterministic chunks (sorted first) of at most `size`. */
export function chunks<T extends string>(items: readonly T[], size: number): T[][] {
  const sorted = [...new Set(items)].sort();
  const out: T[][] = [];
  for (let i = 0; i < sorted.length; i += size) out.push(sorted.slice(i, i + size));
  return out;
}
