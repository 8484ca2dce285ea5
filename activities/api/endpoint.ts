import type { z } from 'zod';

/**
 * An endpoint as data: how to build its request, what it costs, how to validate its answer, and
 * (for lists) which key holds the items. The client and the paginator work from this alone.
 */

/** Compute-unit weights of the public service (facts: Free=1 ... XXL=200). */
export const CU = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const;

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface BuiltRequest {
  /** Path with parameters encoded, e.g. `/v1/chains/43114/blocks`. */
  path: string;
  query: Record<string, QueryValue>;
  /** JSON body for POST. */
  body?: unknown;
}

/** Which budget (and base URL) an endpoint uses: the Data API, or the holder-metrics service. */
export type Service = 'data' | 'metrics';

export interface Endpoint<P, R> {
  name: string;
  method: 'GET' | 'POST';
  service: Service;
  /** Compute units one call costs. */
  weight: number;
  schema: z.ZodType<R>;
  build(params: P): BuiltRequest;
}

export interface ListEndpoint<P extends PageParams, R extends ListResponse<K>, K extends string> extends Endpoint<P, R> {
  /** The response key holding the page's items. */
  listKey: K;
  /**
   * The largest pageSize the endpoint accepts (facts: most lists 100, ERC balances 500, POST UTXOs
   * 1,024, holder metrics 5,000). A request costs `weight` whatever its page size, so this is the
   * cheapest page per item and what streams request unless the config lowers it.
   */
  maxPageSize: number;
}

/** Items one call of `endpoint` can return at most: its largest page, or 1 for a get endpoint. */
export const largestPage = (endpoint: Endpoint<never, unknown> & { maxPageSize?: number }): number => endpoint.maxPageSize ?? 1;

export interface PageParams {
  pageToken?: string;
  pageSize?: number;
}

/** A list response: the items under K, and the next page's token (absent on the last page). */
export type ListResponse<K extends string> = { [key in K]: readonly unknown[] } & { nextPageToken?: string | null };

export type ParamsOf<E> = E extends Endpoint<infer P, infer _R> ? P : never;
export type ResponseOf<E> = E extends Endpoint<infer _P, infer R> ? R : never;
export type ItemOf<E> = E extends ListEndpoint<infer _P, infer R, infer K> ? (R[K] extends readonly (infer I)[] ? I : never) : never;

/** Encodes one path segment. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));

/** A comma-separated list parameter given as a string or an array. */
export const commaList = (value: string | readonly string[] | undefined): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : value.join(',');

export function defineEndpoint<P, R>(endpoint: Endpoint<P, R>): Endpoint<P, R> {
  return endpoint;
}

export function defineList<P extends PageParams, R extends ListResponse<K>, K extends string>(endpoint: ListEndpoint<P, R, K>): ListEndpoint<P, R, K> {
  return endpoint;
}
