import { ApplicationFailure } from '@temporalio/common';
import { NON_RETRYABLE_API, QUOTA_EXHAUSTED, RESPONSE_VALIDATION, WAREHOUSE_MEMORY } from '../common/failures.ts';

/**
 * Maps the API client's classified errors to Temporal failures, once:
 * - quota exhausted: non-retryable here; the workflow sleeps until `resetAt` (first detail);
 * - 4xx, a page token the sync core could not recover from, a looping cursor, and invalid
 *   responses: non-retryable, with the server's message;
 * - a batch that does not fit the warehouse's buffer limit even in pieces: non-retryable (the same
 *   rows fail the same way), its one line naming warehouse.memoryLimit;
 * - 429/5xx/network that the client gave up on: retryable, honouring Retry-After via nextRetryDelay;
 * - anything else: rethrown as-is (retryable by the activity's retry policy).
 */
export function toTemporalFailure(error: unknown): Error {
  if (error instanceof ApplicationFailure) return error;
  if (!(error instanceof Error)) return ApplicationFailure.retryable(String(error));
  const kind = (error as { kind?: string }).kind;
  switch (kind) {
    case 'quota-exhausted': {
      const resetAt = (error as { resetAt?: Date }).resetAt ?? new Date(Date.now() + 60_000);
      return ApplicationFailure.create({ type: QUOTA_EXHAUSTED, message: error.message, nonRetryable: true, details: [resetAt.toISOString()] });
    }
    case 'non-retryable':
    case 'invalid-page-token':
    case 'pagination-loop':
      return ApplicationFailure.create({ type: NON_RETRYABLE_API, message: error.message, nonRetryable: true });
    case 'response-validation':
      return ApplicationFailure.create({ type: RESPONSE_VALIDATION, message: error.message, nonRetryable: true });
    case 'warehouse-memory':
      return ApplicationFailure.create({ type: WAREHOUSE_MEMORY, message: error.message, nonRetryable: true });
    case 'retryable': {
      const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
      return ApplicationFailure.create({
        type: 'RetryableApiError',
        message: error.message,
        nonRetryable: false,
        ...(retryAfterMs ? { nextRetryDelay: retryAfterMs } : {}),
      });
    }
    default:
      return error;
  }
}
