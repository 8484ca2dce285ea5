import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfterMs, withRetries, DEFAULT_RETRY_POLICY } from '../../activities/api/retry.ts';
import { NonRetryableApiError, RetryableApiError } from '../../activities/api/errors.ts';

const label = { method: 'GET', target: '/x' };
const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRateLimitRetries: 2 };

describe('retry helpers', () => {
  it('parse Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs('0.5', now)).toBe(500);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });

  it('back off exponentially with full jitter, capped', () => {
    expect(backoffDelayMs(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(400);
    expect(backoffDelayMs(20, policy, () => 0.999)).toBe(999);
    expect(backoffDelayMs(5, policy, () => 0)).toBe(0);
  });
});

describe('withRetries', () => {
  const noSleep = { sleep: async () => undefined, random: () => 1 };

  it('retries transient failures up to maxRetries, then rethrows with the attempt count', async () => {
    let calls = 0;
    const delays: number[] = [];
    const failing = withRetries(
      async () => {
        calls++;
        throw new RetryableApiError(label, 'server-error', 'boom', { status: 503 });
      },
      policy,
      { ...noSleep, onRetry: (e) => delays.push(e.delayMs) },
    );
    await expect(failing).rejects.toMatchObject({ kind: 'retryable', attempts: 4 });
    expect(calls).toBe(4);
    expect(delays).toEqual([100, 200, 400]);
  });

  it('succeeds after transient failures', async () => {
    let calls = 0;
    const result = await withRetries(async () => {
      if (++calls < 3) throw new RetryableApiError(label, 'network', 'ECONNRESET');
      return 'ok';
    }, policy, noSleep);
    expect(result).toBe('ok');
  });

  it('never retries a non-retryable error', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls++;
        throw new NonRetryableApiError(label, 400, 'Invalid address format');
      }, policy, noSleep),
    ).rejects.toThrow(/Invalid address format/);
    expect(calls).toBe(1);
  });

  it('does not sleep on 429 (the limiter waits) and bounds 429 retries separately', async () => {
    let slept = 0;
    let calls = 0;
    const failing = withRetries(
      async () => {
        calls++;
        throw new RetryableApiError(label, 'rate-limited', 'Too many requests', { status: 429, retryAfterMs: 1000 });
      },
      policy,
      { sleep: async () => void slept++ },
    );
    await expect(failing).rejects.toMatchObject({ reason: 'rate-limited' });
    expect(calls).toBe(3);
    expect(slept).toBe(0);
  });

  it('waits at least the server-requested Retry-After on a 503', async () => {
    const delays: number[] = [];
    let calls = 0;
    await withRetries(
      async () => {
        if (++calls === 1) throw new RetryableApiError(label, 'server-error', 'busy', { status: 503, retryAfterMs: 5000 });
        return 1;
      },
      policy,
      { sleep: async () => undefined, random: () => 0, onRetry: (e) => delays.push(e.delayMs) },
    );
    expect(delays).toEqual([5000]);
  });
});
