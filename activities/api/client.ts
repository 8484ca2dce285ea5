import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import pLimit from 'p-limit';
import { Agent, interceptors, request } from 'undici';
import type { Logger } from '../../common/logger.ts';
import { buildUrl } from './buildUrl.ts';
import { classifyHttpFailure, classifyTransportFailure } from './classifyFailure.ts';
import type { Endpoint, ListEndpoint, ListResponse, PageParams, Service } from './endpoint.ts';
import { endpoints } from './endpoints/index.ts';
import { InvalidPageTokenError, NonRetryableApiError, RetryableApiError, type RequestLabel } from './errors.ts';
import { parseJsonLossless } from './losslessJson.ts';
import { paginate, type Page } from './paginate.ts';
import { headersOf, parseQuotaHeaders, type HeaderReader } from './quotaHeaders.ts';
import type { RequestMeter } from './requestMeter.ts';
import { METRICS_BUDGET, TIER_BUDGETS, budgetFor, type QuotaTier, type RateLimitOverride } from './quotaBudget.ts';
import { NoUsableKeyError, RateLimiter, type Grant, type RateLimiterStats } from './rateLimiter.ts';
import { DEFAULT_RETRY_POLICY, backoffDelayMs, withRetries, type RetryEvent, type RetryPolicy } from './retry.ts';
import { validateResponse } from './validateResponse.ts';

export interface DataApiClientOptions {
  baseUrl: string;
  /** Base URL of the holder-metrics service (default: baseUrl). */
  metricsUrl?: string;
  /** Several keys spread the load: each has its own budget. Empty = keyless ('none' tier). */
  apiKeys?: string[];
  apiKeyHeader?: string;
  tier?: QuotaTier;
  /** Per key (same order as apiKeys): CU per minute and per day, when keys differ or the plan is outside the tier table. */
  keyBudgets?: readonly { perMinute: number; perDay: number }[];
  /** Requests in flight at once. */
  concurrency?: number;
  requestTimeoutMs?: number;
  /** Retries of transient failures (5xx, network, timeouts, bad bodies) per request. */
  maxRetries?: number;
  logger?: Logger;
  /** Budget of the Data API keys (and `metrics` for the metrics service) when it differs from the tier table. */
  rateLimitOverride?: RateLimitOverride & { metrics?: RateLimitOverride };
  /** Longest quota wait done inside a request (default 90 s); longer ones throw QuotaExhaustedError. */
  maxQuotaWaitMs?: number;
  /** Backoff bounds (maxRetries above wins over retry.maxRetries). */
  retry?: Partial<RetryPolicy>;
  /**
   * Extra attempts before a page-token 400 is surfaced as InvalidPageTokenError. A rejected token
   * makes the caller restart a partition (many requests), so confirming it costs little.
   */
  pageTokenRetries?: number;
  /** Share rate limiters with other clients of this process that use the same URL and keys (default true). */
  shareRateLimiter?: boolean;
}

export interface CallOptions {
  /** Fair-share key: waiting requests are served round-robin across partitions. */
  partition?: string;
  signal?: AbortSignal;
  /** Counts this call's HTTP attempts and the CU they were charged (retries and 429s included). */
  meter?: RequestMeter;
}


export interface PagesOptions extends CallOptions {
  /** A saved nextPageToken to continue from. */
  startToken?: string;
  maxPages?: number;
}

export interface ClientStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  /** Successful (validated) responses. */
  responses: number;
  retries: number;
  rateLimited: number;
  /** CU charged: weights of requests the server answered with anything but 429. */
  cuSpent: number;
  /** Response body bytes received. */
  bytes: number;
  pages: number;
  items: number;
  failures: Record<string, number>;
  limiter: { data: RateLimiterStats; metrics: RateLimiterStats };
}

type ItemsOf<R, K extends string> = R extends { [key in K]: readonly (infer I)[] } ? I : never;

/** Typed functions for every endpoint, bound to a client: `client.api.evm.listBlocks({ chainId })`. */
type BoundFamily<F> = { [N in keyof F]: F[N] extends Endpoint<infer P, infer R> ? (params: P, options?: CallOptions) => Promise<R> : never };
export type BoundEndpoints = { [F in keyof typeof endpoints]: BoundFamily<(typeof endpoints)[F]> };

const sharedLimiters = new Map<string, RateLimiter>();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Requests go through undici's `request`, not `fetch`: a 300 KB page cost about 0.5 CPU ms less to
 * fetch and read (no WHATWG streams; bench/README.md, "The client's HTTP"). What fetch did besides is
 * kept: redirects followed, and compressed bodies asked for and decoded (the public service gzips).
 */
const dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));
const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS: Record<string, (body: Uint8Array) => Promise<Uint8Array>> = { gzip: promisify(gunzip), 'x-gzip': promisify(gunzip), deflate: promisify(inflate), br: promisify(brotliDecompress) };

/** A body as sent with no content coding (a coding the client did not ask for is an error). */
async function decodeBody(encoding: string | string[] | undefined, body: Uint8Array): Promise<Uint8Array> {
  const codings = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) throw new Error(`unsupported content-encoding ${coding}`);
    body = await decode(body);
  }
  return body;
}

export type DataApiClient = ReturnType<typeof createDataApiClient>;

/**
 * The one place that talks HTTP to the Data API: keep-alive connections (undici's agent pools them),
 * a concurrency cap, the CU rate limiter, retries with backoff, classified errors, validated
 * responses and pagination. The API key travels only in its header; it is never logged and never
 * stored on an error.
 */
export function createDataApiClient(options: DataApiClientOptions) {
  const apiKeys = (options.apiKeys ?? []).filter(Boolean);
  const keyHeader = options.apiKeyHeader ?? 'x-service-api-key';
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry, ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}) };
  const pageTokenRetries = options.pageTokenRetries ?? 3;
  const log = options.logger;
  const limit = pLimit(options.concurrency ?? 8);
  const baseUrls: Record<Service, string> = { data: options.baseUrl, metrics: options.metricsUrl ?? options.baseUrl };
  const override = options.rateLimitOverride ?? {};
  const maxWaitMs = options.maxQuotaWaitMs ?? 90_000;

  /** Keys go to the Data API only: the holder-metrics service lists no authentication header. */
  const keysFor = (service: Service) => (service === 'data' ? apiKeys : []);

  const limiters: Record<Service, RateLimiter> = {
    data: limiterFor('data', budgetFor(TIER_BUDGETS[apiKeys.length ? (options.tier ?? 'free') : 'none'], override), override.windowMs !== undefined, apiKeys.length ? options.keyBudgets : undefined),
    metrics: limiterFor('metrics', budgetFor(METRICS_BUDGET, override.metrics), override.metrics?.windowMs !== undefined),
  };

  function limiterFor(service: Service, budget: ReturnType<typeof budgetFor>, fixedWindow: boolean, perKey?: readonly { perMinute: number; perDay: number }[]): RateLimiter {
    // A test override (perWindow/perDay) wins over every key's own plan, as it wins over the tier.
    const keyBudgets = perKey?.map((b) => budgetFor(b, override));
    const make = () => new RateLimiter({ keyCount: keysFor(service).length, budget, keyBudgets, maxWaitMs, fixedWindow });
    if (options.shareRateLimiter === false) return make();
    // Keyed by a digest, so the map never holds a readable key as its index.
    const id = createHash('sha256').update(JSON.stringify([service, baseUrls[service], keysFor(service), keyBudgets])).digest('hex');
    let limiter = sharedLimiters.get(id);
    if (!limiter) sharedLimiters.set(id, (limiter = make()));
    return limiter;
  }

  const counters = { requests: 0, responses: 0, retries: 0, rateLimited: 0, cuSpent: 0, bytes: 0, pages: 0, items: 0 };
  const failures: Record<string, number> = {};
  const countFailure = (name: string) => (failures[name] = (failures[name] ?? 0) + 1);

  /** Removes every API key from text the server sent (a server may echo a rejected key). */
  const scrub = (text: string) => apiKeys.reduce((out, key) => (key.length >= 4 ? out.split(key).join('[redacted]') : out), text);

  /** One HTTP exchange: budget, send, read, classify. Throws classified errors only. */
  async function exchange(service: Service, endpoint: Endpoint<unknown, unknown>, url: string, label: RequestLabel, body: string | undefined, sentPageToken: boolean, callOptions: CallOptions, attempt: number): Promise<unknown> {
    const limiter = limiters[service];
    const grant: Grant = await limiter.acquire(endpoint.weight, callOptions.partition).catch((error: unknown) => {
      throw error instanceof NoUsableKeyError ? new NonRetryableApiError(label, 401, error.message) : error;
    });
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const keys = keysFor(service);
    if (keys.length) headers[keyHeader] = keys[grant.keyIndex];
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callOptions.signal ? AbortSignal.any([timeout, callOptions.signal]) : timeout;
    const started = performance.now();
    counters.requests++;
    if (callOptions.meter) callOptions.meter.requests++;
    let response: { status: number; ok: boolean; headers: HeaderReader };
    let raw: Uint8Array;
    try {
      const reply = await request(url, { method: endpoint.method, headers, body, signal, dispatcher });
      raw = await decodeBody(reply.headers['content-encoding'], new Uint8Array(await reply.body.arrayBuffer()));
      response = { status: reply.statusCode, ok: reply.statusCode >= 200 && reply.statusCode < 300, headers: headersOf(reply.headers) };
    } catch (error) {
      limiter.abandon(grant);
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      throw classifyTransportFailure(label, error, timeout.aborted);
    }
    counters.bytes += raw.byteLength;
    const quota = parseQuotaHeaders(response.headers);
    const text = new TextDecoder().decode(raw);
    const ms = Math.round(performance.now() - started);
    log?.debug({ method: label.method, target: label.target, status: response.status, ms, bytes: raw.byteLength, cu: endpoint.weight, keyIndex: grant.keyIndex, attempt }, 'api request');
    if (response.status === 429) {
      counters.rateLimited++;
      if (callOptions.meter) callOptions.meter.rejected429++;
      const error = classifyHttpFailure(label, 429, text, response.headers, { sentPageToken, scrub }) as RetryableApiError;
      limiter.rateLimited(grant, error.retryAfterMs, quota);
      throw error;
    }
    counters.cuSpent += endpoint.weight;
    if (callOptions.meter) callOptions.meter.cu += endpoint.weight;
    limiter.settle(grant, quota);
    if (!response.ok) {
      const error = classifyHttpFailure(label, response.status, text, response.headers, { sentPageToken, scrub });
      if ((response.status === 401 || response.status === 403) && keys.length > 0) {
        // This key is unknown or revoked: stop using it; another key may still work.
        limiter.disableKey(grant.keyIndex);
        log?.warn({ keyIndex: grant.keyIndex, status: response.status }, 'API key rejected; not using it again');
        if (limiter.usableKeys() > 0) throw new RetryableApiError(label, 'server-error', `API key ${grant.keyIndex} rejected, trying another`, { status: response.status, retryAfterMs: 0 });
      }
      throw error;
    }
    let decoded: unknown;
    try {
      // Lossless: an integer beyond 2^53 sent as a bare number arrives as its exact text, not rounded.
      decoded = parseJsonLossless(text);
    } catch {
      throw new RetryableApiError(label, 'bad-body', `unparseable JSON body (${raw.byteLength} bytes)`, { status: response.status });
    }
    return validateResponse(endpoint.schema, decoded, label);
  }

  /** Calls an endpoint with retries; resolves with the validated response. */
  async function call<P, R>(endpoint: Endpoint<P, R>, params: P, callOptions: CallOptions = {}): Promise<R> {
    const built = endpoint.build(params);
    const service = endpoint.service;
    const { url, target } = buildUrl(baseUrls[service], built);
    const label: RequestLabel = { method: endpoint.method, target };
    const body = built.body === undefined ? undefined : JSON.stringify(built.body);
    const sentPageToken = typeof built.query.pageToken === 'string';
    const attemptOnce = (attempt: number) => limit(() => exchange(service, endpoint as Endpoint<unknown, unknown>, url, label, body, sentPageToken, callOptions, attempt));
    const onRetry = ({ error, attempt, delayMs }: RetryEvent) => {
      counters.retries++;
      log?.warn({ method: label.method, target: label.target, reason: error.reason, status: error.status, attempt, delayMs }, 'api request retried');
    };
    try {
      let result: unknown;
      for (let check = 0; ; check++) {
        try {
          result = await withRetries(attemptOnce, policy, { onRetry });
          break;
        } catch (error) {
          // Confirm a page-token rejection a few times before making the caller restart a partition:
          // that restart costs many requests, a confirmation costs one.
          if (!(error instanceof InvalidPageTokenError) || check >= pageTokenRetries) throw error;
          counters.retries++;
          log?.warn({ method: label.method, target: label.target, reason: 'page-token', status: error.status, check: check + 1 }, 'page token rejected; confirming');
          await sleep(backoffDelayMs(check, policy));
        }
      }
      counters.responses++;
      return result as R;
    } catch (error) {
      countFailure((error as Error)?.name ?? 'Error');
      log?.warn({ method: label.method, target: label.target, err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'api request failed');
      throw error;
    }
  }

  /** Walks a list endpoint page by page, from the first page or a saved token. */
  async function* pages<P extends PageParams, R extends ListResponse<K>, K extends string>(
    endpoint: ListEndpoint<P, R, K>,
    params: Omit<P, 'pageToken'>,
    pagesOptions: PagesOptions = {},
  ): AsyncGenerator<Page<ItemsOf<R, K>, R>> {
    const first = buildUrl(baseUrls[endpoint.service], endpoint.build(params as P));
    const walk = paginate(
      async (pageToken) => {
        const response = await call(endpoint, { ...params, pageToken } as P, pagesOptions);
        const items = response[endpoint.listKey] as unknown as ItemsOf<R, K>[];
        counters.pages++;
        counters.items += items.length;
        return { items, nextPageToken: response.nextPageToken, response };
      },
      { startToken: pagesOptions.startToken, maxPages: pagesOptions.maxPages, label: { method: endpoint.method, target: first.target } },
    );
    yield* walk;
  }

  /** Every item of a list, page after page. */
  async function* items<P extends PageParams, R extends ListResponse<K>, K extends string>(endpoint: ListEndpoint<P, R, K>, params: Omit<P, 'pageToken'>, pagesOptions: PagesOptions = {}): AsyncGenerator<ItemsOf<R, K>> {
    for await (const page of pages(endpoint, params, pagesOptions)) yield* page.items;
  }

  const api = Object.fromEntries(
    Object.entries(endpoints).map(([family, members]) => [
      family,
      Object.fromEntries(Object.entries(members).map(([name, endpoint]) => [name, (params: unknown, callOptions?: CallOptions) => call(endpoint as Endpoint<unknown, unknown>, params, callOptions)])),
    ]),
  ) as BoundEndpoints;

  function stats(): ClientStats {
    return { ...counters, failures: { ...failures }, limiter: { data: limiters.data.stats(), metrics: limiters.metrics.stats() } };
  }

  return { call, pages, items, api, endpoints, stats };
}

