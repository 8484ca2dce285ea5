/**
 * The client's error classes. Every failure is classified once, where the response (or its absence)
 * is seen, into one of these; `kind` is what the orchestration maps to Temporal failure types.
 * None of them holds request headers, so an API key can never travel inside a thrown error.
 */

export type ApiErrorKind =
  | 'retryable'
  | 'non-retryable'
  | 'invalid-page-token'
  | 'quota-exhausted'
  | 'response-validation'
  | 'pagination-loop';

/** What the request was, for messages: method and path with query, never headers. */
export interface RequestLabel {
  method: string;
  /** Path and query string, e.g. `/v1/chains/43114/blocks?pageSize=100`. */
  target: string;
}

export abstract class DataApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  readonly method: string;
  readonly target: string;

  constructor(request: RequestLabel, message: string) {
    super(`${request.method} ${request.target}: ${message}`);
    this.method = request.method;
    this.target = request.target;
  }
}

export type RetryReason = 'rate-limited' | 'server-error' | 'network' | 'timeout' | 'bad-body';

/** 429, 5xx, connection failures, timeouts, truncated bodies: worth another attempt. */
export class RetryableApiError extends DataApiError {
  override name = 'RetryableApiError';
  readonly kind = 'retryable';
  readonly reason: RetryReason;
  readonly status?: number;
  /** Server-requested wait (Retry-After), if any. */
  readonly retryAfterMs?: number;
  /** Attempts made before giving up (set when retries are exhausted). */
  attempts?: number;

  constructor(request: RequestLabel, reason: RetryReason, detail: string, extra: { status?: number; retryAfterMs?: number } = {}) {
    super(request, `${reason}${extra.status ? ` (HTTP ${extra.status})` : ''}: ${detail}`);
    this.reason = reason;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.retryAfterMs !== undefined) this.retryAfterMs = extra.retryAfterMs;
  }
}

/** A 4xx (other than 429) carrying the server's message. Retrying the same request cannot help. */
export class NonRetryableApiError extends DataApiError {
  override name = 'NonRetryableApiError';
  readonly kind: ApiErrorKind = 'non-retryable';
  readonly status: number;
  /** The server's `message`, joined when it was an array. */
  readonly serverMessage: string;

  constructor(request: RequestLabel, status: number, serverMessage: string) {
    super(request, `HTTP ${status}: ${serverMessage}`);
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/**
 * A 400 to a request that carried a page token: read as a stale token (expired after 24 h, or
 * unknown), whatever the message. Its own type: the caller restarts the partition from its durable
 * cursor instead of failing, once per walk position.
 */
export class InvalidPageTokenError extends NonRetryableApiError {
  override name = 'InvalidPageTokenError';
  override readonly kind = 'invalid-page-token';
}

/** The daily (or a long) quota is spent: the caller should pause until `resetAt`, not wait inside. */
export class QuotaExhaustedError extends Error {
  override name = 'QuotaExhaustedError';
  readonly kind = 'quota-exhausted';
  readonly resetAt: Date;

  constructor(resetAt: Date, detail: string) {
    super(`API quota exhausted until ${resetAt.toISOString()}: ${detail}`);
    this.resetAt = resetAt;
  }
}

/** A 200 whose body does not have the documented shape (e.g. the list key missing). */
export class ResponseValidationError extends DataApiError {
  override name = 'ResponseValidationError';
  readonly kind = 'response-validation';
  /** Path of the first offending value, e.g. `blocks` or `blocks[3].blockHash`. */
  readonly path: string;
  /** What the schema expects there and what the value is (JSON types), with the value as sent (JSON text, cut). */
  readonly types?: { expected: string; received: string; sample: string | null };

  constructor(request: RequestLabel, path: string, issue: string, types?: { expected: string; received: string; sample: string | null }) {
    super(request, `invalid response at ${path}: ${issue}`);
    this.path = path;
    if (types) this.types = types;
  }
}

/** The server sent a token that repeats (or is empty): following it would never end. */
export class PaginationLoopError extends DataApiError {
  override name = 'PaginationLoopError';
  readonly kind = 'pagination-loop';
  readonly pageToken: string;

  constructor(request: RequestLabel, pageToken: string, detail: string) {
    super(request, detail);
    this.pageToken = pageToken;
  }
}

export function isDataApiError(error: unknown): error is DataApiError | QuotaExhaustedError {
  return error instanceof DataApiError || error instanceof QuotaExhaustedError;
}
