import type { z } from 'zod';
import { knownValuesOf } from '../api/schemas/fields.ts';
import type { DriftSeen } from '../warehouse/driftRecord.ts';
import { sampleOf } from '../warehouse/driftRecord.ts';
import type { PageContext, TableSpec } from './columns.ts';
import { keysOf, shapeOf, type Shape } from './shapes.ts';

/**
 * Which parts of a stream's items its tables keep, derived once per stream from two declarations:
 * the item's response schema (which keys the API is known to send, and the known values of enum
 * fields) and the tables' column readers (which keys a column reads; found by running each reader
 * once on a recording proxy when the stream is declared). On the write path each item is scanned
 * against that tree: a key no column reads — unknown to the schema, or known but unread — goes into
 * the item's unmapped fields (the `_extra` column), and what the schema did not know is reported as
 * drift. The scan matches each object to its shape (shapes.ts: the keys it lists, in order) and looks
 * only at the keys that can matter for that shape, decided once per shape; no allocation unless
 * something is unmapped.
 */
export interface FieldNode {
  /** Dotted path of this node inside an item (`from`, `erc20Transfers[]`); '' for the item. */
  path: string;
  /** Declared by the schema (false: only a reader names it). */
  declared: boolean;
  /** The schema accepts any keys below (z.unknown, records): nothing below is drift. */
  open: boolean;
  fields: Map<string, FieldNode>;
  element?: FieldNode;
  /** 0: no column reads it; 1: columns read parts of it; 2: a column reads it whole. */
  read: 0 | 1 | 2;
  /** Its elements are the rows of a child table (their unmapped fields go to that table's `_extra`). */
  childRows?: boolean;
  /** Known values of an enum-typed field (values outside are drift, stored as sent). */
  known?: ReadonlySet<string>;
  /** An enum-typed field sits below it (set by finish): a value kept whole, or not read, is still checked for new enum values. */
  enumsBelow?: boolean;
}

const node = (path: string, declared: boolean): FieldNode => ({ path, declared, open: false, fields: new Map(), read: 0 });

// ---- the schema side --------------------------------------------------------------------------

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType; catchall?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema's tree of known keys (unions merged, optional/nullable/pipes seen through). */
export function schemaTree(schema: z.ZodType | undefined, path = '', into: FieldNode = node(path, true), depth = 0): FieldNode {
  if (!schema || depth > 12) {
    into.open = true;
    return into;
  }
  const known = knownValuesOf(schema);
  if (known) into.known = known;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return schemaTree(def.innerType, path, into, depth + 1);
    case 'pipe':
      return schemaTree(def.in, path, into, depth + 1);
    case 'union':
      for (const option of def.options ?? []) schemaTree(option, path, into, depth + 1);
      return into;
    case 'object':
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const child = into.fields.get(key) ?? node(join(path, key), true);
        into.fields.set(key, schemaTree(field, child.path, child, depth + 1));
      }
      return into;
    case 'array':
      into.element = schemaTree(def.element, `${path}[]`, into.element ?? node(`${path}[]`, true), depth + 1);
      return into;
    case 'unknown':
    case 'any':
    case 'record':
      into.open = true;
      return into;
    default:
      return into;
  }
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The element schema of a list schema (through optional/nullable/pipes); undefined when it is no list. */
export function listElement(schema: z.ZodType): z.ZodType | undefined {
  for (let s: z.ZodType | undefined = schema, i = 0; s && i < 8; i++) {
    const def = defOf(s);
    if (def.type === 'array') return def.element;
    s = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}

// ---- the reader side --------------------------------------------------------------------------

const NODE = Symbol('field node');
const ARRAY_METHODS = new Set(['map', 'filter', 'forEach', 'some', 'every', 'find', 'findIndex', 'flatMap', 'reduce', 'slice', 'at', 'join', 'includes', 'indexOf', 'flat', 'concat', 'entries', 'values', 'keys']);

function fieldOf(parent: FieldNode, key: string): FieldNode {
  let f = parent.fields.get(key);
  if (!f) parent.fields.set(key, (f = node(join(parent.path, key), false)));
  return f;
}

function elementOf(parent: FieldNode): FieldNode {
  return (parent.element ??= node(`${parent.path}[]`, false));
}

/** Marks `n` read: a node whose parts are read stays partial (see finish()). */
const touched = new WeakSet<FieldNode>();
/** One probe run: the nodes it read, and the nodes that read as absent (to reach `a ?? b` fallbacks). */
let run: { seen: FieldNode[]; parents: Set<FieldNode>; absent: Set<FieldNode> } = { seen: [], parents: new Set(), absent: new Set() };
const STRING_METHODS = new Set(Object.getOwnPropertyNames(String.prototype));

/**
 * A stand-in for a value at `n`: every property read, iteration and conversion is noted on the tree.
 * Conversions to text or JSON read the value whole.
 */
function recorder(n: FieldNode): unknown {
  if (run.absent.has(n)) return undefined;
  touched.add(n);
  run.seen.push(n);
  const whole = () => (n.read = 2);
  return new Proxy(
    {},
    {
      get(_t, prop) {
        if (prop === NODE) return n;
        if (typeof prop === 'symbol') {
          if (prop === Symbol.iterator) {
            run.parents.add(n);
            return function* () {
              yield recorder(elementOf(n));
            };
          }
          if (prop === Symbol.toPrimitive) {
            whole();
            return () => '0';
          }
          return undefined;
        }
        if (prop === 'toJSON' || prop === 'toString' || prop === 'valueOf') {
          whole();
          return () => (prop === 'toJSON' ? null : '0');
        }
        if (prop === 'length') return 1;
        if (/^\d+$/.test(prop)) {
          run.parents.add(n);
          return recorder(elementOf(n));
        }
        if (ARRAY_METHODS.has(prop)) {
          run.parents.add(n);
          const one = [recorder(elementOf(n))];
          return (...args: unknown[]) => (Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[prop].apply(one, args);
        }
        if (STRING_METHODS.has(prop)) {
          whole();
          return () => '0';
        }
        run.parents.add(n);
        return recorder(fieldOf(n, prop));
      },
      // Object.keys / entries: the keys the schema declares (an open object is read whole).
      ownKeys() {
        if (n.open || n.fields.size === 0) whole();
        return [...n.fields.keys()];
      },
      getOwnPropertyDescriptor(_t, prop) {
        if (typeof prop !== 'string' || !n.fields.has(prop)) return undefined;
        return { value: recorder(fieldOf(n, prop)), enumerable: true, configurable: true, writable: true };
      },
      has: () => true,
    },
  );
}

/** The node a stand-in stands for. */
const nodeOf = (value: unknown): FieldNode | undefined =>
  value !== null && (typeof value === 'object' || typeof value === 'function') ? ((value as Record<symbol, unknown>)[NODE] as FieldNode | undefined) : undefined;

const PROBE_CONTEXT: PageContext = { partition: { id: 'probe', params: {} }, snapshotAt: 0, snapshot: 0n, runId: 'probe' };

/**
 * Runs every column reader of `table` on `source` (a stand-in); a reader that throws on a stand-in
 * read what it read until then. Each reader runs again with the values it read so far absent, until
 * it reads nothing new, so a fallback (`a ?? b`) is seen too.
 */
export function probeColumns<S>(table: TableSpec<S>, source: (() => S) | S): void {
  for (const c of table.columns) {
    const absent = new Set<FieldNode>();
    for (let pass = 0; pass < 8; pass++) {
      run = { seen: [], parents: new Set(), absent };
      try {
        c.get(typeof source === 'function' ? (source as () => S)() : source, PROBE_CONTEXT);
      } catch {
        // conversions of stand-ins may throw; the reads happened first
      }
      const parents = run.parents;
      const fresh = run.seen.filter((n) => !parents.has(n) && !absent.has(n));
      if (fresh.length === 0) break;
      for (const n of fresh) absent.add(n);
    }
  }
  run = { seen: [], parents: new Set(), absent: new Set() };
}

/** A stand-in item for the tree (see recorder). */
export const standIn = (tree: FieldNode): unknown => recorder(tree);

/** Marks the list a stand-in stands for as the rows of a child table; returns a stand-in entry. */
export function childEntry(list: unknown): unknown {
  const n = nodeOf(list);
  if (!n) return undefined;
  n.childRows = true;
  return recorder(elementOf(n));
}

/** After probing: a node touched with no part read is read whole; a node with read parts is partial. */
export function finish(n: FieldNode): FieldNode {
  let parts = false;
  let enums = false;
  for (const f of [...n.fields.values(), ...(n.element ? [n.element] : [])]) {
    finish(f);
    if (f.read > 0) parts = true;
    if (f.known !== undefined || f.enumsBelow === true) enums = true;
  }
  if (enums) n.enumsBelow = true;
  if (n.read !== 2 && touched.has(n)) n.read = parts ? 1 : 2;
  return n;
}

/** A value as the list of a child table: an array, or the stand-in of one while the stream's readers are probed; anything else none. */
export function asList<I>(value: unknown): readonly I[] | undefined {
  return Array.isArray(value) || nodeOf(value)?.element !== undefined ? (value as readonly I[]) : undefined;
}

// ---- the write path ---------------------------------------------------------------------------

/** What the scan of one page found: each item's (and child entry's) unmapped fields as JSON text, and drift. */
export interface PageScan {
  unmapped: Map<object, string>;
  drift: Map<string, DriftSeen>;
  /** How many items sent each top-level key (missing_field drift compares it with the stream's baseline). */
  keys: Map<string, number>;
  items: number;
}

function observe(scan: PageScan, kind: DriftSeen['kind'], path: string, value: unknown): void {
  const key = `${kind}\u0000${path}`;
  const had = scan.drift.get(key);
  if (had) had.count += 1;
  else scan.drift.set(key, { kind, path, count: 1, sample: sampleOf(value) });
}

/** A value of an enum field outside its known values is drift (it is stored as sent). */
function newEnumValue(f: FieldNode, v: unknown, scan: PageScan): void {
  if (f.known !== undefined && typeof v === 'string' && !f.known.has(v)) observe(scan, 'new_enum_value', `${f.path}=${v}`, v);
}

/**
 * Whether the scan below can do anything for a key whose node is `f` (undefined: unknown to the
 * schema), whatever its value. Objects of a known shape are scanned on those keys only (shapes.ts):
 * keep this in step with the scan.
 */
function matters(f: FieldNode | undefined): boolean {
  return f === undefined || f.known !== undefined || f.read !== 2 || f.enumsBelow === true;
}

/** The keys of a shape that can matter, decided at its first object. */
const keysToScan = (shape: Shape<readonly string[]>, n: FieldNode): readonly string[] => (shape.plan ??= keysOf(shape).filter((key) => matters(n.fields.get(key))));

/** Scans one object against its node; returns its unmapped fields (undefined: none). `shape`: the object's, when the caller found it. */
function scanObject(obj: Record<string, unknown>, n: FieldNode, scan: PageScan, shape: Shape<readonly string[]> | undefined = n.open ? undefined : shapeOf(obj, n)): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  // A node that keeps no more shapes (or an open one) looks at every key.
  const keys = shape === undefined ? Object.keys(obj) : keysToScan(shape, n);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const v = obj[key];
    if (v === undefined) continue;
    const f = n.fields.get(key);
    if (f === undefined) {
      if (!n.open) observe(scan, 'new_field', join(n.path, key), v);
      (extra ??= {})[key] = v;
      continue;
    }
    newEnumValue(f, v, scan);
    if (v === null) continue;
    if (f.read !== 1) {
      // Kept whole, in a column (2) or in _extra (0): nothing below is unmapped, but its enum fields are still checked.
      if (f.read === 0) (extra ??= {})[key] = v;
      if (f.enumsBelow === true && typeof v === 'object') checkEnums(v, f, scan);
      continue;
    }
    if (typeof v !== 'object') continue;
    const sub = Array.isArray(v) ? scanArray(v, f, scan) : scanObject(v as Record<string, unknown>, f, scan);
    if (sub !== undefined) (extra ??= {})[key] = sub;
  }
  return extra;
}

/** New enum values anywhere in a value kept whole (its unknown keys are kept with it, and not reported). */
function checkEnums(value: object, n: FieldNode, scan: PageScan): void {
  if (Array.isArray(value)) {
    const element = n.element;
    if (element !== undefined) for (const entry of value as unknown[]) if (entry !== null && typeof entry === 'object') checkEnums(entry, element, scan);
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const f = n.fields.get(key);
    const v = obj[key];
    if (f === undefined || v === null || v === undefined) continue;
    newEnumValue(f, v, scan);
    if (f.enumsBelow === true && typeof v === 'object') checkEnums(v, f, scan);
  }
}

/** Entries of a list: child rows keep their own unmapped fields; others come back positionally (null: nothing unmapped). */
function scanArray(list: unknown[], f: FieldNode, scan: PageScan): unknown[] | undefined {
  const element = f.element;
  if (!element) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const sub = scanObject(entry as Record<string, unknown>, element, scan);
    if (sub === undefined) continue;
    if (f.childRows) scan.unmapped.set(entry, JSON.stringify(sub));
    else {
      out ??= new Array<unknown>(list.length).fill(null);
      out[i] = sub;
    }
  }
  return out;
}

/** Scans a page's items; an item's unmapped fields are keyed by the item object. */
export function scanItems(items: readonly unknown[], tree: FieldNode): PageScan {
  const scan: PageScan = { unmapped: new Map(), drift: new Map(), keys: new Map(), items: 0 };
  const keys = scan.keys;
  // Top-level keys are counted per shape: the items of one shape send the same keys.
  const shapes = new Map<Shape<readonly string[]>, number>();
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    scan.items += 1;
    const shape = tree.open ? undefined : shapeOf<readonly string[]>(item, tree);
    if (shape !== undefined) shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    else for (const key in item) keys.set(key, (keys.get(key) ?? 0) + 1);
    const extra = scanObject(item as Record<string, unknown>, tree, scan, shape);
    if (extra !== undefined) scan.unmapped.set(item, JSON.stringify(extra));
  }
  for (const [shape, count] of shapes) for (const key of keysOf(shape)) keys.set(key, (keys.get(key) ?? 0) + count);
  return scan;
}

/** Every path under `n` that no column reads (known-but-unmapped fields), for tests and docs. */
export function unreadPaths(n: FieldNode, out: string[] = []): string[] {
  for (const f of n.fields.values()) {
    if (f.read === 0) out.push(f.path);
    else if (f.read === 1) unreadPaths(f, out);
  }
  if (n.element && n.read === 1) unreadPaths(n.element, out);
  return out;
}
