import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NoUsableKeyError, RateLimiter, type Grant } from '../../activities/api/rateLimiter.ts';
import { QuotaExhaustedError } from '../../activities/api/errors.ts';

const budget = (perWindow: number, perDay = 1_000_000) => ({ perWindow, windowMs: 1000, perDay, dayMs: 100_000 });

/** Records grants in order, with the (fake) time each was granted. */
function recorder(limiter: RateLimiter) {
  const granted: { tag: string; at: number; grant: Grant }[] = [];
  const take = (weight: number, tag: string, partition?: string) =>
    limiter.acquire(weight, partition).then((grant) => {
      granted.push({ tag, at: Date.now(), grant });
      return grant;
    });
  return { granted, take };
}

describe('RateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('spends at most the window budget, then waits for the next window', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(300), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    for (let i = 0; i < 7; i++) void take(100, `r${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.map((g) => g.at)).toEqual([0, 0, 0]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted.map((g) => g.at)).toEqual([0, 0, 0, 1000, 1000, 1000]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted).toHaveLength(7);
  });

  it('after a 429 pauses every request on that key until retry-after, then re-aligns its window', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(1000), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    const first = await take(100, 'a');
    vi.setSystemTime(200);
    limiter.rateLimited(first, 1500);
    for (let i = 0; i < 3; i++) void take(100, `w${i}`);
    await vi.advanceTimersByTimeAsync(1499);
    expect(granted).toHaveLength(1); // nothing sent while paused
    await vi.advanceTimersByTimeAsync(1);
    expect(granted.slice(1).map((g) => g.at)).toEqual([1700, 1700, 1700]);
    // The 429 told us where the server's window ends: the next refill is one window later.
    expect(limiter.stats().keys[0].pausedUntil).toBe(1700);
  });

  it('lowers its estimate when the server reports less remaining than expected', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(1000), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    const g = await take(100, 'a');
    limiter.settle(g, { limit: 1000, remaining: 200 }); // someone else spent 700 this window
    for (let i = 0; i < 4; i++) void take(100, `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(3);
  });

  it('learns a smaller limit and the window length from headers', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: { perWindow: 8000, windowMs: 60_000, perDay: 1e9, dayMs: 86_400_000 }, maxWaitMs: 120_000 });
    const { granted, take } = recorder(limiter);
    const g = await take(100, 'a');
    limiter.settle(g, { limit: 300, remaining: 200, windowMs: 2000 });
    for (let i = 0; i < 4; i++) void take(100, `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2000);
    expect(granted).toHaveLength(5);
    expect(granted[3].at).toBe(2000);
  });

  it('serves waiting partitions round-robin, not first-come', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(100), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    await take(100, 'warmup');
    for (let i = 0; i < 3; i++) void take(100, `A${i}`, 'A');
    for (let i = 0; i < 3; i++) void take(100, `B${i}`, 'B');
    void take(100, 'C0', 'C');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(granted.slice(1).map((g) => g.tag)).toEqual(['A0', 'B0', 'C0', 'A1', 'B1', 'A2', 'B2']);
  });

  it('spreads load over several keys, each with its own budget, choosing the one with most left', async () => {
    const limiter = new RateLimiter({ keyCount: 3, budget: budget(200), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    for (let i = 0; i < 6; i++) void take(100, `r${i}`);
    void take(100, 'late');
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(6);
    expect(granted.map((g) => g.grant.keyIndex).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    // A 429 on key 1 does not stop keys 0 and 2.
    limiter.rateLimited(granted[1].grant, 30_000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted).toHaveLength(7);
    expect(granted[6].grant.keyIndex).not.toBe(1);
  });

  it('keys of different tiers: each key spends its own window and daily budget', async () => {
    // Key 0 a small plan (200 per window, 300 a day), key 1 a big one (600 per window).
    const limiter = new RateLimiter({ keyCount: 2, budget: budget(100), keyBudgets: [budget(200, 300), budget(600)], maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    for (let i = 0; i < 16; i++) void take(100, `r${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.map((g) => g.grant.keyIndex).sort()).toEqual([0, 0, 1, 1, 1, 1, 1, 1]);
    await vi.advanceTimersByTimeAsync(1000);
    // Next window: key 0 has only 100 CU of its day left, key 1 its whole window again.
    expect(granted.filter((g) => g.at === 1000).map((g) => g.grant.keyIndex).sort()).toEqual([0, 1, 1, 1, 1, 1, 1]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted.filter((g) => g.at === 2000).map((g) => g.grant.keyIndex)).toEqual([1]);
  });

  it('throws QuotaExhaustedError with the reset time when the daily budget is spent, instead of waiting hours', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(1000, 250), maxWaitMs: 60_000 });
    await limiter.acquire(100);
    await limiter.acquire(100);
    const error = await limiter.acquire(100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.getTime()).toBe(100_000);
    expect((error as QuotaExhaustedError).kind).toBe('quota-exhausted');
  });

  it('turns a 429 with a long retry-after into QuotaExhaustedError unless another key has budget', async () => {
    const limiter = new RateLimiter({ keyCount: 2, budget: budget(1000), maxWaitMs: 60_000 });
    const a = await limiter.acquire(100);
    limiter.rateLimited(a, 3_600_000);
    const b = await limiter.acquire(100);
    expect(b.keyIndex).not.toBe(a.keyIndex);
    limiter.rateLimited(b, 7_200_000);
    const error = await limiter.acquire(100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.getTime()).toBe(3_600_000);
  });

  it('only moves the window boundary later from a reset header, so whole-second rounding cannot refill early', async () => {
    const limiter = new RateLimiter({ keyCount: 1, budget: budget(100), maxWaitMs: 60_000 });
    const { granted, take } = recorder(limiter);
    const g = await take(100, 'a');
    limiter.settle(g, { resetMs: 1800 }); // the server's window ends at 1800, not at our guess of 1000
    void take(100, 'b');
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(800);
    expect(granted.map((x) => x.at)).toEqual([0, 1800]);
    limiter.settle(granted[1].grant, { resetMs: 100 }); // an earlier boundary is ignored
    void take(100, 'c');
    await vi.advanceTimersByTimeAsync(999);
    expect(granted).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(3);
  });

  it('stops using a disabled key, and says so when none is left', async () => {
    const limiter = new RateLimiter({ keyCount: 2, budget: budget(1000), maxWaitMs: 60_000 });
    limiter.disableKey(0);
    for (let i = 0; i < 3; i++) expect((await limiter.acquire(100)).keyIndex).toBe(1);
    limiter.disableKey(1);
    await expect(limiter.acquire(100)).rejects.toBeInstanceOf(NoUsableKeyError);
  });
});
