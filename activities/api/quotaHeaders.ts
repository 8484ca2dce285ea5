import type { QuotaHeaders } from './rateLimiter.ts';

const num = (value: string | null): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value.split(',')[0].trim());
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Reads `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset` (seconds) and the window from
 * `ratelimit-policy` (`<limit>;w=<seconds>`). Absent headers (keyless requests) give an empty object.
 */
export function parseQuotaHeaders(headers: Headers): QuotaHeaders {
  const out: QuotaHeaders = {};
  const limit = num(headers.get('ratelimit-limit'));
  const remaining = num(headers.get('ratelimit-remaining'));
  const reset = num(headers.get('ratelimit-reset'));
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (reset !== undefined) out.resetMs = Math.ceil(reset * 1000);
  const window = /;\s*w=(\d+(?:\.\d+)?)/.exec(headers.get('ratelimit-policy') ?? '');
  if (window) out.windowMs = Math.round(Number(window[1]) * 1000);
  return out;
}
