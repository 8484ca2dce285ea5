import { describe, expect, it } from 'vitest';
import { paginate, type FetchedPage } from '../../activities/api/paginate.ts';
import { PaginationLoopError } from '../../activities/api/errors.ts';

const label = { method: 'GET', target: '/v1/chains/1/blocks' };

/** A fake server: pages keyed by the token that fetches them ('' = first page). */
function server(pages: Record<string, FetchedPage<number, null>>) {
  const requested: (string | undefined)[] = [];
  const fetchPage = async (token: string | undefined) => {
    requested.push(token);
    const page = pages[token ?? ''];
    if (!page) throw new Error(`no page for ${token}`);
    return page;
  };
  return { fetchPage, requested };
}

async function collect<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of walk) out.push(x);
  return out;
}

describe('paginate', () => {
  it('follows tokens until the token is absent, continuing through short pages', async () => {
    const { fetchPage, requested } = server({
      '': { items: [1, 2, 3], nextPageToken: 'a', response: null },
      a: { items: [4], nextPageToken: 'b', response: null }, // short page: not the end
      b: { items: [], nextPageToken: 'c', response: null }, // even an empty page with a token continues
      c: { items: [5, 6], response: null },
    });
    const pages = await collect(paginate(fetchPage, { label }));
    expect(pages.flatMap((p) => p.items)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages.map((p) => [p.requestToken, p.nextPageToken])).toEqual([
      [undefined, 'a'],
      ['a', 'b'],
      ['b', 'c'],
      ['c', undefined],
    ]);
    expect(requested).toEqual([undefined, 'a', 'b', 'c']);
  });

  it('treats a null token as the last page', async () => {
    const { fetchPage } = server({ '': { items: [1], nextPageToken: null, response: null } });
    expect(await collect(paginate(fetchPage, { label }))).toHaveLength(1);
  });

  it('starts from a saved token, and stops after maxPages so the walk can be continued', async () => {
    const pagesByToken = {
      '': { items: [1], nextPageToken: 'a', response: null },
      a: { items: [2], nextPageToken: 'b', response: null },
      b: { items: [3], response: null },
    };
    const first = await collect(paginate(server(pagesByToken).fetchPage, { label, maxPages: 1 }));
    const rest = await collect(paginate(server(pagesByToken).fetchPage, { label, startToken: first.at(-1)!.nextPageToken }));
    const full = await collect(paginate(server(pagesByToken).fetchPage, { label }));
    expect([...first, ...rest].flatMap((p) => p.items)).toEqual(full.flatMap((p) => p.items));
  });

  it('fails loudly on a token that repeats the previous one', async () => {
    const { fetchPage, requested } = server({
      '': { items: [1], nextPageToken: 'a', response: null },
      a: { items: [2], nextPageToken: 'a', response: null },
    });
    await expect(collect(paginate(fetchPage, { label }))).rejects.toThrow(PaginationLoopError);
    expect(requested).toEqual([undefined, 'a']);
  });

  it('fails loudly on a cycle through older tokens', async () => {
    const { fetchPage } = server({
      '': { items: [1], nextPageToken: 'a', response: null },
      a: { items: [2], nextPageToken: 'b', response: null },
      b: { items: [3], nextPageToken: 'a', response: null },
    });
    await expect(collect(paginate(fetchPage, { label }))).rejects.toMatchObject({ kind: 'pagination-loop', pageToken: 'a' });
  });

  it('ends the list on an empty-string token, as the public OpenAPI document defines it', async () => {
    const { fetchPage, requested } = server({
      '': { items: [1], nextPageToken: 'a', response: null },
      a: { items: [2], nextPageToken: '', response: null },
    });
    const pages = await collect(paginate(fetchPage, { label }));
    expect(pages.flatMap((p) => p.items)).toEqual([1, 2]);
    expect(pages.at(-1)!.nextPageToken).toBeUndefined();
    expect(requested).toEqual([undefined, 'a']);
  });

  it('an empty saved start token names no page: the walk starts at the first page', async () => {
    const { fetchPage, requested } = server({ '': { items: [1], response: null } });
    expect((await collect(paginate(fetchPage, { label, startToken: '' }))).flatMap((p) => p.items)).toEqual([1]);
    expect(requested).toEqual([undefined]);
  });
});
