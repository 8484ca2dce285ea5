/**
 * Pre-serialized JSON. Hot list handlers build each item's JSON text directly (no object, no
 * JSON.stringify walk), and the response writer splices it in verbatim. The text must be exactly
 * what JSON.stringify would produce for the item, so a body is byte-identical either way.
 */
export class JsonText {
  constructor(readonly json: string) {}
}

/** JSON string literal of a value that is known to need no escaping (hex, digits, fixed ASCII). */
export const q = (s: string): string => `"${s}"`;

/**
 * The JSON text of a handler result, as JSON.stringify would write it, except that JsonText values
 * are inserted verbatim. They are recognized where handlers put them: as a field of the top-level
 * object, or as an element of an array in such a field (the items of a list page).
 */
export function serializeBody(body: unknown): string {
  return bodyParts(body).join('');
}

/**
 * The body's JSON as UTF-8 bytes: serializeBody(body) encoded, but built from its parts (the
 * items' texts) into one Buffer, so the joined text is never materialized as a string.
 */
export function serializeBodyBytes(body: unknown): Buffer {
  const parts = bodyParts(body);
  let chars = 0;
  let bytes = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    chars += p.length;
    bytes += p.length === 1 ? (p.charCodeAt(0) < 0x80 ? 1 : Buffer.byteLength(p)) : Buffer.byteLength(p);
  }
  const buf = Buffer.allocUnsafe(bytes);
  // Pure ASCII (the usual case): latin1 writes the same bytes as UTF-8, as a plain copy.
  const encoding = bytes === chars ? 'latin1' : 'utf8';
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === ',') buf[pos++] = 44;
    else pos += buf.write(p, pos, encoding);
  }
  return buf;
}

/** The texts whose concatenation is the body's JSON (list items stay separate parts). */
function bodyParts(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlain(body)) return [JSON.stringify(body) ?? ''];
  const parts: string[] = [];
  let head = '{';
  for (const key in body) {
    const v = (body as Record<string, unknown>)[key];
    if (Array.isArray(v) && v.length > 0 && v[0] instanceof JsonText) {
      parts.push(head + JSON.stringify(key) + ':[');
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as unknown;
        if (i > 0) parts.push(',');
        parts.push(item instanceof JsonText ? item.json : (JSON.stringify(item) ?? 'null'));
      }
      head = '],';
      continue;
    }
    const text = v instanceof JsonText ? v.json : JSON.stringify(v);
    if (text === undefined) continue; // undefined, functions: left out, as JSON.stringify does
    head += JSON.stringify(key) + ':' + text + ',';
  }
  // head ends with the separator after the last field (or is the lone '{' of an empty object).
  parts.push(head === '{' ? '{}' : head.slice(0, -1) + '}');
  return parts;
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (o as { toJSON?: unknown }).toJSON !== 'function';
}

/** The parsed value of an item (ground truth hands out objects). */
export function parsedItem(v: unknown): unknown {
  return v instanceof JsonText ? JSON.parse(v.json) : v;
}
