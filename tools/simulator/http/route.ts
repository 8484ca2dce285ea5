import type { World } from '../world/world.ts';

/** Which listener serves a route: the data API base URL or the holder-metrics URL. */
export type Service = 'data' | 'metrics';

/** The result of one page of a list: items and, unless this is the last page, the next token. */
export interface PageResult<I> {
  items: I[];
  nextPageToken?: string;
}

/** One step of a list walk: from a cursor state, at most `limit` items and the state after them. */
export type PageFetch<C, I> = (cursor: C, limit: number) => { items: I[]; next: C | undefined };

/**
 * Pagination for list handlers. The pattern every list uses is "cursor state in, page of items +
 * next cursor state out", so each page costs O(page size). The helper turns states into signed,
 * route-bound tokens, and in ground-truth mode walks every page directly without tokens.
 */
export interface PageHelper {
  paginate<C, I>(opts: { pageSize: number; first: C; fetch: PageFetch<C, I> }): PageResult<I>;
  /**
   * Offset-based convenience for lists whose order never changes under growth (ascending walks,
   * fixed sets): `get(offset, limit)` returns the items at [offset, offset+limit).
   */
  paginateOffset<I>(opts: { pageSize: number; total: number; get: (offset: number, limit: number) => I[] }): PageResult<I>;
  /**
   * Hook of the `shortPage` fault (primary-network transactions): returns how many items this page
   * may hold, possibly fewer than `limit`. The handler must then issue a token to the rest.
   */
  shortLimit(limit: number): number;
  /**
   * The whole filtered, ordered list a walk pages over, computed once per world step and filters
   * (the request's binding) and shared by the walk's pages, so a page costs a search and a slice
   * rather than a pass over everything. `compute` must depend only on the world and the filters.
   */
  memo<T>(compute: () => T): T;
}

export interface RequestContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  world: World;
  /** Wall-clock time of the request (injected clock), epoch seconds. */
  nowSec: number;
  page: PageHelper;
}

export interface RouteDef {
  method: 'GET' | 'POST';
  /**
   * Path pattern: segments starting with `:` are parameters, every other segment is literal, so
   * `balances:getNative` and `rewards:listPending` are plain literal segments (no escaping).
   */
  path: string;
  /** Cost in compute units (docs/public-service.md, Compute units). */
  weight: number;
  service: Service;
  /** Present on list routes: the key of the items array in the response body. */
  list?: { itemsKey: string };
  /** Returns the JSON body of a 200 response; throws ApiError for errors. */
  handler(ctx: RequestContext): unknown | Promise<unknown>;
}

/** CU weights of the facts document. */
export const WEIGHT = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200, metricsMedium: 100 } as const;
