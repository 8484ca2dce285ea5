import { ErrorBody } from './schemas/common.ts';
import { InvalidPageTokenError, NonRetryableApiError, RetryableApiError, type DataApiError, type RequestLabel } from './errors.ts';
import type { HeaderReader } from './quotaHeaders.ts';
import { parseRetryAfterMs } from './retry.ts';

/**
 * The one place where a failed exchange becomes a classified error: an HTTP status with its body, or
 * an exception from the transport. `scrub` removes secrets (API keys) from any text the server sent.
 */

/** The server's `message` (string or string[]), or a fallback. */
export function serverMessage(bodyText: string, fallback: string): string {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(bodyText));
    if (parsed.success && parsed.data.message != null) {
      const { message } = parsed.data;
      return Array.isArray(message) ? message.join('; ') : message;
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const text = bodyText.trim().slice(0, 300);
  return text || fallback;
}

/**
 * A 400 to a request that carried a page token is read as a stale token (expired after 24 h, or
 * unknown), whatever its message says: the wording is the server's to change, and the cost of a wrong
 * guess is bounded, because the sync core restarts a walk at most once per position (a second 400
 * there, or any 400 without a token, fails as the non-retryable error it then is).
 */
function isPageTokenProblem(status: number, sentPageToken: boolean): boolean {
  return status === 400 && sentPageToken;
}

export function classifyHttpFailure(
  request: RequestLabel,
  status: number,
  bodyText: string,
  headers: HeaderReader,
  context: { sentPageToken: boolean; scrub: (text: string) => string },
): DataApiError {
  const message = context.scrub(serverMessage(bodyText, `HTTP ${status}`));
  if (status === 429) {
    return new RetryableApiError(request, 'rate-limited', message, { status, retryAfterMs: parseRetryAfterMs(headers.get('retry-after')) ?? parseRetryAfterMs(headers.get('ratelimit-reset')) });
  }
  if (status >= 500 || status === 408) {
    return new RetryableApiError(request, 'server-error', message, { status, retryAfterMs: parseRetryAfterMs(headers.get('retry-after')) });
  }
  if (isPageTokenProblem(status, context.sentPageToken)) return new InvalidPageTokenError(request, status, message);
  return new NonRetryableApiError(request, status, message);
}

/** Transport failures (resets, refused connections, aborts) are retryable; the message keeps only the cause's code. */
export function classifyTransportFailure(request: RequestLabel, error: unknown, timedOut: boolean): RetryableApiError {
  if (timedOut) return new RetryableApiError(request, 'timeout', 'request timed out');
  // undici's request names the failure in its own code (ECONNREFUSED, UND_ERR_SOCKET); fetch in its cause's.
  const { code, cause } = (error ?? {}) as { code?: string; cause?: { code?: string; message?: string } };
  const detail = code ?? cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new RetryableApiError(request, 'network', detail);
}
