import { AsciiWriter } from './asciiWriter.ts';
import { JsonSpan } from './jsonText.ts';

/**
 * Items holding uint64 values (bigints) the public service sends as bare JSON integers, above 2^53
 * included: JSON.stringify cannot write a bigint and a JS number would round it. Such an item is
 * spelled here into a span of its own: bigints become exact integer literals. The span also carries
 * the value a lossless client reads back (integers beyond ±(2^53-1) as their decimal text, smaller
 * ones as numbers), which is what ground truth hands out.
 */

/** A private-use marker no served string contains: "<marker>digits" stands for a bigint literal. */
const MARK = '\u{F8FF}';
const MARKED = new RegExp(`"${MARK}(-?\\d+)"`, 'g');

const toMarked = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? `${MARK}${v}` : v);

/** JSON text of a value holding bigints, written as exact integer literals; non-ASCII escaped. */
export function exactJsonText(value: unknown): string {
  return JSON.stringify(value, toMarked)
    .replace(MARKED, '$1')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The value as a lossless JSON reader returns it: safe bigints as numbers, others as decimal text. */
export function exactJsonValue(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, toMarked), (_key, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(MARK)) return v;
    const n = BigInt(v.slice(MARK.length));
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  });
}

/** The items of one list page as spans (all of them: a list is spans or plain values, not a mix). */
export function exactSpans(items: unknown[]): JsonSpan[] {
  const w = new AsciiWriter(1024 * Math.max(1, items.length));
  return items.map((item) => {
    if (w.pos > 0) w.byte(44); // ',' between items, so adjacent spans form one run
    const start = w.pos;
    w.ascii(exactJsonText(item));
    return new JsonSpan(w, start, w.pos, exactJsonValue(item));
  });
}
