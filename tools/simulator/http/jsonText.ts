import { AsciiWriter } from './asciiWriter.ts';

/**
 * Pre-serialized JSON as ASCII bytes: item `buf[start, end)` of a JsonItemWriter. Hot list handlers
 * spell each item directly (no object, no JSON.stringify walk), and the response writer copies
 * runs of adjacent items in one native copy. The bytes must be exactly what JSON.stringify would
 * produce for the item, so a body is byte-identical either way. `json` is only read off the hot
 * path (ground truth, fault responses).
 */
export class JsonSpan {
  /** value: the item as a lossless client parses it, when JSON.parse of the text would round (see exactJson.ts). */
  constructor(readonly w: AsciiWriter, readonly start: number, readonly end: number, readonly value?: unknown) {}

  get json(): string {
    return this.w.buf.toString('latin1', this.start, this.end);
  }
}

/**
 * Room left in front of a page's items, so the response head (`{"nextPageToken":"…","blocks":[`)
 * can be written just before them and the body sent from the items' own buffer without a copy.
 */
const HEAD_ROOM = 1024;

/**
 * Writers of page bodies, reused: a page's writer comes back once the socket has taken the bytes
 * (see bodyBytes). Allocating ~60 KB of external memory per page made V8 collect garbage for
 * "external memory pressure" over and over.
 */
const pageWriters: AsciiWriter[] = [];
const POOLED_WRITERS = 32;

/** Gives writers whose spans are no longer referenced back to the pool. */
export function recycleWriters(writers: AsciiWriter[]): void {
  for (const w of writers) if (pageWriters.length < POOLED_WRITERS) pageWriters.push(w);
}

/**
 * Spells the items of one page straight into one buffer, joined by ',' (so a page's items are one
 * run of bytes): `begin()` hands out the writer for the next item, `end()` records it. Each fetch
 * gets its own writer, so the spans it hands out stay valid for as long as they are held (a
 * writer is only reused after its page was sent).
 */
export class JsonItemWriter {
  readonly items: JsonSpan[] = [];
  private readonly w: AsciiWriter;
  private start = 0;

  /** bytesPerItem: a guess that makes the buffer fit a usual page without growing. */
  constructor(limit: number, bytesPerItem = 768) {
    const size = HEAD_ROOM + Math.max(1024, Math.min(limit, 1000) * bytesPerItem);
    this.w = pageWriters.pop() ?? new AsciiWriter(size);
    this.w.reset();
    this.w.ensure(size);
    this.w.pos = HEAD_ROOM;
  }

  begin(): AsciiWriter {
    if (this.items.length > 0) this.w.byte(44); // ,
    this.start = this.w.pos;
    return this.w;
  }

  end(): void {
    this.items.push(new JsonSpan(this.w, this.start, this.w.pos));
  }
}


/**
 * The JSON text of a handler result, as JSON.stringify would write it, except that JsonSpan values
 * are inserted verbatim. They are recognized where handlers put them: as a field of the top-level
 * object, or as an element of an array in such a field (the items of a list page).
 */
export function serializeBody(body: unknown): string {
  return bodyParts(body)
    .map((p) => (typeof p === 'string' ? p : p.json))
    .join('');
}

/**
 * The body's JSON as UTF-8 bytes: serializeBody(body) encoded, but built from its parts (the
 * items' texts) into one Buffer, so the joined text is never materialized as a string.
 */
export function serializeBodyBytes(body: unknown): Buffer {
  return bodyBytes(body).buf;
}

/**
 * serializeBodyBytes, and the page writers the body was built from: hand them to recycleWriters
 * once `buf` has been sent. A list page whose items are one run of a writer's bytes is sent from
 * that writer's buffer (head written into the room in front of the items, tail after them).
 */
export function bodyBytes(body: unknown): { buf: Buffer; writers: AsciiWriter[] } {
  const parts = bodyParts(body);
  if (parts.length === 3 && typeof parts[0] === 'string' && typeof parts[1] !== 'string' && typeof parts[2] === 'string') {
    const [head, run, tail] = parts as [string, JsonSpan, string];
    const w = run.w;
    if (run.start >= head.length && run.end === w.pos && isAscii(head) && isAscii(tail)) {
      w.ascii(tail);
      const start = run.start - head.length;
      w.buf.write(head, start, 'latin1');
      return { buf: w.buf.subarray(start, w.pos), writers: [w] };
    }
  }
  let chars = 0;
  let bytes = 0;
  const writers: AsciiWriter[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p !== 'string') {
      chars += p.end - p.start;
      bytes += p.end - p.start;
      if (!writers.includes(p.w)) writers.push(p.w);
    } else {
      chars += p.length;
      bytes += p.length === 1 ? (p.charCodeAt(0) < 0x80 ? 1 : Buffer.byteLength(p)) : Buffer.byteLength(p);
    }
  }
  const buf = Buffer.allocUnsafe(bytes);
  // Pure ASCII (the usual case): latin1 writes the same bytes as UTF-8, as a plain copy.
  const encoding = bytes === chars ? 'latin1' : 'utf8';
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p !== 'string') pos += p.w.buf.copy(buf, pos, p.start, p.end);
    else if (p === ',') buf[pos++] = 44;
    else pos += buf.write(p, pos, encoding);
  }
  return { buf, writers };
}

// eslint-disable-next-line no-control-regex
const isAscii = (s: string): boolean => /^[\x00-\x7f]*$/.test(s);

/**
 * The pieces whose concatenation is the body's JSON: texts, and spans of item bytes (list items
 * stay separate parts; adjacent spans of one writer, which already hold the ',' between them,
 * are one part).
 */
function bodyParts(body: unknown): (string | JsonSpan)[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlain(body)) return [JSON.stringify(body) ?? ''];
  const parts: (string | JsonSpan)[] = [];
  let head = '{';
  for (const key in body) {
    const v = (body as Record<string, unknown>)[key];
    if (Array.isArray(v) && v.length > 0 && v[0] instanceof JsonSpan) {
      parts.push(head + JSON.stringify(key) + ':[');
      let run: JsonSpan | null = null;
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as unknown;
        if (item instanceof JsonSpan) {
          if (run !== null && run.w === item.w && run.end + 1 === item.start) {
            run = new JsonSpan(run.w, run.start, item.end);
            continue;
          }
          if (run !== null) parts.push(run, ',');
          else if (i > 0) parts.push(',');
          run = item;
          continue;
        }
        if (run !== null) parts.push(run, ',');
        else if (i > 0) parts.push(',');
        run = null;
        parts.push(JSON.stringify(item) ?? 'null');
      }
      if (run !== null) parts.push(run);
      head = '],';
      continue;
    }
    const text = v instanceof JsonSpan ? v.json : JSON.stringify(v);
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
  if (!(v instanceof JsonSpan)) return v;
  return v.value !== undefined ? v.value : JSON.parse(v.json);
}
