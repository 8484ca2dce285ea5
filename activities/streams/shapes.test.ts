import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enumOf } from '../api/schemas/fields.ts';
import { sampleOf, type DriftSeen } from '../warehouse/driftRecord.ts';
import { scanItems, schemaTree, type FieldNode, type PageScan } from './unmapped.ts';

/**
 * The page scan looks at an object's keys through its shape (shapes.ts: the keys that can matter,
 * decided once per key sequence). These tests hold it to the scan that looks up every key of every
 * object (the reference below, the scan before shapes), on pages that meet new shapes mid-page, keys
 * the schema does not know (top level and nested, in child rows and in lists), enum values outside
 * the known ones, nulls, undefined values, and a node that meets more key sequences than it keeps.
 */

// ---- the reference: every key of every object, looked up in its node --------------------------

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function observe(scan: PageScan, kind: DriftSeen['kind'], path: string, value: unknown): void {
  const key = `${kind}\u0000${path}`;
  const had = scan.drift.get(key);
  if (had) had.count += 1;
  else scan.drift.set(key, { kind, path, count: 1, sample: sampleOf(value) });
}

function refObject(obj: Record<string, unknown>, n: FieldNode, scan: PageScan): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const key in obj) {
    const v = obj[key];
    if (v === undefined) continue;
    const f = n.fields.get(key);
    if (f === undefined) {
      if (!n.open) observe(scan, 'new_field', join(n.path, key), v);
      (extra ??= {})[key] = v;
      continue;
    }
    if (f.known !== undefined && typeof v === 'string' && !f.known.has(v)) observe(scan, 'new_enum_value', `${f.path}=${v}`, v);
    if (f.read === 2 || v === null) continue;
    if (f.read === 0) {
      (extra ??= {})[key] = v;
      continue;
    }
    if (typeof v !== 'object') continue;
    const sub = Array.isArray(v) ? refArray(v, f, scan) : refObject(v as Record<string, unknown>, f, scan);
    if (sub !== undefined) (extra ??= {})[key] = sub;
  }
  return extra;
}

function refArray(list: unknown[], f: FieldNode, scan: PageScan): unknown[] | undefined {
  const element = f.element;
  if (!element) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const sub = refObject(entry as Record<string, unknown>, element, scan);
    if (sub === undefined) continue;
    if (f.childRows) scan.unmapped.set(entry, JSON.stringify(sub));
    else {
      out ??= new Array<unknown>(list.length).fill(null);
      out[i] = sub;
    }
  }
  return out;
}

function referenceScan(items: readonly unknown[], tree: FieldNode): PageScan {
  const scan: PageScan = { unmapped: new Map(), drift: new Map(), keys: new Map(), items: 0 };
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    scan.items += 1;
    for (const key in item) scan.keys.set(key, (scan.keys.get(key) ?? 0) + 1);
    const extra = refObject(item as Record<string, unknown>, tree, scan);
    if (extra !== undefined) scan.unmapped.set(item, JSON.stringify(extra));
  }
  return scan;
}

// ---- a tree with every kind of node ---------------------------------------------------------------

function tree(): FieldNode {
  const schema = z.object({
    id: z.string(),
    kind: enumOf('ercType'),
    amount: z.object({ value: z.string(), unit: z.string(), kind: enumOf('callType') }),
    tags: z.array(z.string()),
    children: z.array(z.object({ n: z.number(), label: z.string(), kind: enumOf('rewardType').nullable() })),
    parts: z.array(z.object({ p: z.number(), q: z.string() })),
    note: z.string().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  });
  const t = schemaTree(schema);
  const f = (path: string) => path.split('.').reduce((n, k) => (k === '[]' ? n.element! : n.fields.get(k)!), t);
  t.read = 1;
  for (const p of ['id', 'kind', 'tags', 'meta']) f(p).read = 2;
  f('note').read = 0;
  f('amount').read = 1;
  f('amount.value').read = 2;
  f('amount.kind').read = 2;
  f('amount.unit').read = 0;
  for (const list of ['children', 'parts']) {
    f(list).read = 1;
    f(`${list}.[]`).read = 1;
  }
  f('children').childRows = true;
  f('children.[].n').read = 2;
  f('children.[].kind').read = 2;
  f('children.[].label').read = 0;
  f('parts.[].p').read = 2;
  f('parts.[].q').read = 2;
  return t;
}

/** A scan as plain values: each item's and child entry's unmapped text in list order, drift, key counts. */
function plain(scan: PageScan, items: readonly Record<string, unknown>[]) {
  return {
    items: scan.items,
    unmapped: items.map((item) => [scan.unmapped.get(item) ?? null, ...((item.children as object[] | undefined) ?? []).map((c) => scan.unmapped.get(c) ?? null)]),
    drift: [...scan.drift.values()].sort((a, b) => `${a.kind}${a.path}`.localeCompare(`${b.kind}${b.path}`)),
    keys: [...scan.keys].sort(([a], [b]) => a.localeCompare(b)),
  };
}

const base = (i: number): Record<string, unknown> => ({
  id: `t${i}`,
  kind: i % 7 === 0 ? 'z' : 'ERC-20',
  amount: { value: String(i), unit: 'nAVAX', kind: 'NATIVE_TRANSFER' },
  tags: ['a', 'b'],
  children: [
    { n: i, label: `c${i}`, kind: 'VALIDATOR' },
    { n: i + 1, label: null, kind: null },
  ],
  parts: [{ p: 1, q: 'q' }],
});

/** Items of varied shapes: optional keys present or not, keys in another order, new keys at each level, nulls and undefined values. */
function page(from: number, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const item = base(i);
    switch (i % 9) {
      case 1:
        item.note = `note ${i}`;
        break;
      case 2:
        item.brandNew = { deep: i };
        break;
      case 3:
        (item.amount as Record<string, unknown>).extraUnit = 'x';
        (item.amount as Record<string, unknown>).kind = 'w';
        break;
      case 4:
        ((item.children as Record<string, unknown>[])[1] as Record<string, unknown>).newChildField = i;
        ((item.children as Record<string, unknown>[])[0] as Record<string, unknown>).kind = 'e';
        break;
      case 5:
        (item.parts as Record<string, unknown>[]).push({ q: 'reordered', p: 2, r: 'new in a list' });
        break;
      case 6:
        item.meta = { anything: i, goes: 'here' };
        item.note = null;
        break;
      case 7:
        item.note = undefined;
        item.later = undefined;
        break;
      case 8:
        return Object.fromEntries(Object.entries(item).reverse());
    }
    return item;
  });
}

describe('page scan by shape', () => {
  it('finds what the key-by-key scan finds, page after page', () => {
    const byShape = tree();
    const byKey = tree();
    for (const [from, count] of [
      [0, 40],
      [40, 40],
      [7, 3],
    ]) {
      const items = page(from, count);
      const scan = plain(scanItems(items, byShape), items);
      expect(scan).toEqual(plain(referenceScan(items, byKey), items));
      // Not vacuous: the full pages carry drift of both kinds and unmapped fields.
      if (count === 40) {
        expect(new Set(scan.drift.map((d) => d.kind))).toEqual(new Set(['new_field', 'new_enum_value']));
        expect(scan.unmapped.flat().filter((u) => u !== null).length).toBeGreaterThan(count / 2);
      }
    }
  });

  it('finds the same once a node has met more key sequences than it keeps', () => {
    const byShape = tree();
    const byKey = tree();
    // Every item sends a key of its own: the item node's shapes stop growing and it is scanned key by key.
    const items = page(0, 6_000).map((item, i) => ({ ...item, [`k${i}`]: i }));
    expect(plain(scanItems(items, byShape), items)).toEqual(plain(referenceScan(items, byKey), items));
    const next = page(6_000, 50);
    expect(plain(scanItems(next, byShape), next)).toEqual(plain(referenceScan(next, byKey), next));
  });
});
