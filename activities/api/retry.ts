import { RetryableApiError } from './errors.ts';

/** Retry policy for transient failures (5xx, network, timeouts, bad bodies). 429s wait in the rate limiter instead. */
export interface RetryPolicy {
  /** Retries after the first attempt for transient failures. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** 429s are not counted in maxRetries (the limiter already made them wait); this bounds them separately. */
  maxRateLimitRetries: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 8, baseDelayMs: 250, maxDelayMs: 20_000, maxRateLimitRetries: 30 };

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^retry)]. */
export function backoffDelayMs(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as milliseconds from now: delta seconds (fractions allowed) or an HTTP date. */
export function parseRetryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface RetryEvent {
  error: RetryableApiError;
  /** 1-based number of the attempt that failed. */
  attempt: number;
  delayMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, a non-retryable error is thrown, or the bounds are reached.
 * Only RetryableApiError is retried; the last one is rethrown with `attempts` set.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: { onRetry?: (event: RetryEvent) => void; random?: () => number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  let transient = 0;
  let rateLimited = 0;
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!(error instanceof RetryableApiError)) throw error;
      let delayMs: number;
      if (error.reason === 'rate-limited') {
        // The limiter has paused the key for Retry-After; the next attempt waits there, not here.
        if (++rateLimited > policy.maxRateLimitRetries) throw Object.assign(error, { attempts: attemptNumber });
        delayMs = 0;
      } else {
        if (++transient > policy.maxRetries) throw Object.assign(error, { attempts: attemptNumber });
        delayMs = Math.max(backoffDelayMs(transient - 1, policy, hooks.random), error.retryAfterMs ?? 0);
      }
      hooks.onRetry?.({ error, attempt: attemptNumber, delayMs });
      if (delayMs > 0) await (hooks.sleep ?? sleep)(delayMs);
    }
  }
}
