import { PaginationLoopError, type RequestLabel } from './errors.ts';

/** One page of a walk: its items, the token for the next page (absent on the last), and the token that fetched it. */
export interface Page<T, R = unknown> {
  items: T[];
  /** Absent on the last page (an empty token from the server arrives here as absent). */
  nextPageToken: string | undefined;
  /** The token this page was requested with (undefined for the first page of a fresh walk); save it to re-read this page. */
  requestToken: string | undefined;
  /** The whole validated response (chainInfo, nativeTokenBalance, ...). */
  response: R;
}

export interface FetchedPage<T, R> {
  items: T[];
  nextPageToken?: string | null;
  response: R;
}

export interface PaginateOptions {
  /** A saved `nextPageToken` to continue from; omit to start at the first page. */
  startToken?: string;
  /** Stop after this many pages (the walk can be continued from the last page's nextPageToken). */
  maxPages?: number;
  /** Names the walk in a PaginationLoopError. */
  label: RequestLabel;
}

/** How many recent tokens are remembered to detect a cycle (bounded so endless walks stay small). */
const REMEMBERED_TOKENS = 10_000;

/** The token of the next page, or undefined at the end: the public OpenAPI document ends a list on an absent or an empty token. */
export function nextPageTokenOf(token: string | null | undefined): string | undefined {
  return token === null || token === undefined || token === '' ? undefined : token;
}

/**
 * Walks a paginated list: yields pages until `nextPageToken` is absent or empty (the end of the list).
 * Short pages (fewer items than pageSize) with a token are normal and continue. A token seen before in
 * this walk is a server bug: it throws PaginationLoopError instead of looping forever. The one loop of
 * the project: the client's pages() and the sync core's walks both run on it (the sync core stops
 * early where its walk is complete and starts a new loop after a rejected token).
 */
export async function* paginate<F extends { nextPageToken?: string | null }>(
  fetchPage: (pageToken: string | undefined) => Promise<F>,
  options: PaginateOptions,
): AsyncGenerator<Omit<F, 'nextPageToken'> & { nextPageToken: string | undefined; requestToken: string | undefined }> {
  const seen = new Set<string>();
  // An empty saved token names no page: start at the first one.
  let token = nextPageTokenOf(options.startToken);
  if (token !== undefined) seen.add(token);
  for (let pages = 0; options.maxPages === undefined || pages < options.maxPages; pages++) {
    const fetched = await fetchPage(token);
    const next = nextPageTokenOf(fetched.nextPageToken);
    if (next !== undefined && seen.has(next)) throw new PaginationLoopError(options.label, next, 'server repeated a nextPageToken: the walk would never end');
    yield { ...fetched, nextPageToken: next, requestToken: token };
    if (next === undefined) return;
    if (seen.size >= REMEMBERED_TOKENS) seen.clear();
    seen.add(next);
    token = next;
  }
}
