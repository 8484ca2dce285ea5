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
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlain(body)) return JSON.stringify(body) ?? '';
  let out = '';
  for (const key in body) {
    const v = (body as Record<string, unknown>)[key];
    let text: string | undefined;
    if (v instanceof JsonText) text = v.json;
    else if (Array.isArray(v) && v.length > 0 && v[0] instanceof JsonText) text = arrayText(v);
    else text = JSON.stringify(v);
    if (text === undefined) continue; // undefined, functions: left out, as JSON.stringify does
    out += (out === '' ? '{' : ',') + JSON.stringify(key) + ':' + text;
  }
  return out === '' ? '{}' : out + '}';
}

function arrayText(items: unknown[]): string {
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    parts[i] = v instanceof JsonText ? v.json : (JSON.stringify(v) ?? 'null');
  }
  return '[' + parts.join(',') + ']';
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (o as { toJSON?: unknown }).toJSON !== 'function';
}

/** The parsed value of an item (ground truth hands out objects). */
export function parsedItem(v: unknown): unknown {
  return v instanceof JsonText ? JSON.parse(v.json) : v;
}
