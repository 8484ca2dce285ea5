import type { IncomingHttpHeaders } from 'node:http';
import type { QuotaHeaders } from './rateLimiter.ts';

/** What the classifiers read of a response's headers (a WHATWG Headers, or headersOf an undici response's). */
export type HeaderReader = Pick<Headers, 'get'>;

/** The headers of an undici response (lower-cased names; a repeated header joined as fetch joins it). */
export function headersOf(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

const num = (value: string | null): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value.split(',')[0].trim());
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Reads `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset` (seconds) and the window from
 * `ratelimit-policy` (`<limit>;w=<seconds>`). Absent headers (keyless requests) give an empty object.
 */
export function parseQuotaHeaders(headers: HeaderReader): QuotaHeaders {
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
