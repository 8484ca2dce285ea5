import type { PageFetch, PageHelper, PageResult } from './route.ts';
import type { PageTokenCodec } from './pageToken.ts';

/** Serves one page per request: decodes the request's token, encodes the next one. */
export class TokenPageHelper implements PageHelper {
  constructor(
    private readonly codec: PageTokenCodec,
    private readonly binding: string,
    private readonly token: string | null,
    private readonly shortPage: (limit: number) => number,
  ) {}

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
}

function offsetFetch<I>(total: number, get: (offset: number, limit: number) => I[]): PageFetch<number, I> {
  return (offset, limit) => {
    const n = Math.max(0, Math.min(limit, total - offset));
    const items = n > 0 ? get(offset, n) : [];
    return { items, next: offset + n < total ? offset + n : undefined };
  };
}
