import type { PageFetch, PageHelper, PageResult } from './route.ts';
import type { PageTokenCodec } from './pageToken.ts';

/** Lists computed for recent walks, by world step and binding (least recently used dropped first). */
export class WalkCache {
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly capacity = 32) {}

  get<T>(key: string, compute: () => T): T {
    if (this.entries.has(key)) {
      const hit = this.entries.get(key) as T;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
    return value;
  }
}

/** Serves one page per request: decodes the request's token, encodes the next one. */
export class TokenPageHelper implements PageHelper {
  constructor(
    private readonly codec: PageTokenCodec,
    private readonly binding: string,
    private readonly token: string | null,
    private readonly shortPage: (limit: number) => number,
    private readonly walks: WalkCache,
    private readonly worldStep: number,
  ) {}

  memo<T>(compute: () => T): T {
    return this.walks.get(`${this.worldStep}|${this.binding}`, compute);
  }

  paginate<C, I>(opts: { pageSize: number; first: C; fetch: PageFetch<C, I> }): PageResult<I> {
    const cursor = this.token ? (this.codec.decode(this.token, this.binding) as C) : opts.first;
    const { items, next } = opts.fetch(cursor, opts.pageSize);
    // A page is only "last" when the walk has nothing left; an empty non-final page never occurs
    // because fetch returns next=undefined once exhausted.
    return next === undefined ? { items } : { items, nextPageToken: this.codec.encode(next, this.binding) };
  }

  paginateOffset<I>(opts: { pageSize: number; total: number; get: (offset: number, limit: number) => I[] }): PageResult<I> {
    return this.paginate<number, I>({ pageSize: opts.pageSize, first: 0, fetch: offsetFetch(opts.total, opts.get) });
  }

  shortLimit(limit: number): number {
    return this.shortPage(limit);
  }
}

/** Ground truth: walks every page of the list directly (no tokens, no faults) and returns all items. */
export class TruthPageHelper implements PageHelper {
  static readonly CHUNK = 1000;

  paginate<C, I>(opts: { pageSize: number; first: C; fetch: PageFetch<C, I> }): PageResult<I> {
    const all: I[] = [];
    let cursor: C | undefined = opts.first;
    while (cursor !== undefined) {
      const { items, next } = opts.fetch(cursor, TruthPageHelper.CHUNK);
      for (const it of items) all.push(it);
      cursor = next;
    }
    return { items: all };
  }

  paginateOffset<I>(opts: { pageSize: number; total: number; get: (offset: number, limit: number) => I[] }): PageResult<I> {
    return this.paginate<number, I>({ pageSize: opts.pageSize, first: 0, fetch: offsetFetch(opts.total, opts.get) });
  }

  shortLimit(limit: number): number {
    return limit;
  }

  memo<T>(compute: () => T): T {
    return compute();
  }
}

function offsetFetch<I>(total: number, get: (offset: number, limit: number) => I[]): PageFetch<number, I> {
  return (offset, limit) => {
    const n = Math.max(0, Math.min(limit, total - offset));
    const items = n > 0 ? get(offset, n) : [];
    return { items, next: offset + n < total ? offset + n : undefined };
  };
}
