import type { PageFetch } from '../http/route.ts';

/**
 * Pages over a fully ordered list by sort key: the cursor is the key of the last item served, and
 * the next page starts at the first item after it. New items only ever sort before a descending
 * walk's cursor or after an ascending walk's end, so growth never skips or repeats an item.
 * Key parts are numbers or decimal strings (amounts, compared as integers).
 */
export type SortKey = (number | string)[];

export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'string' && typeof y === 'string') return BigInt(x) < BigInt(y) ? -1 : 1;
    return (x as number) < (y as number) ? -1 : 1;
  }
  return a.length - b.length;
}

export function keyedFetch<I>(
  items: I[],
  keyOf: (item: I) => SortKey,
  order: 'asc' | 'desc',
  /** Optional per-page cut (short pages): given the page so far and a candidate, may it join? */
  admit?: (page: I[], next: I) => boolean,
): PageFetch<SortKey | null, I> {
  const sign = order === 'asc' ? 1 : -1;
  return (cursor, limit) => {
    let start = 0;
    if (cursor !== null) {
      // Binary search for the first item strictly after the cursor in list order.
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sign * compareKeys(keyOf(items[mid]), cursor) <= 0) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const page: I[] = [];
    for (let i = start; i < items.length && page.length < limit; i++) {
      if (page.length > 0 && admit && !admit(page, items[i])) break;
      page.push(items[i]);
    }
    const end = start + page.length;
    return { items: page, next: end < items.length && page.length > 0 ? keyOf(page[page.length - 1]) : undefined };
  };
}

/** Sorts in place by key in the given order. */
export function sortByKey<I>(items: I[], keyOf: (item: I) => SortKey, order: 'asc' | 'desc'): I[] {
  const sign = order === 'asc' ? 1 : -1;
  return items.sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)));
}
