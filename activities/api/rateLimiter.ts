import { QuotaExhaustedError } from './errors.ts';
import type { QuotaBudget } from './quotaBudget.ts';

/**
 * Process-wide compute-unit limiter. Each API key has its own bucket: a fixed window (the public
 * service and the simulator count CU per fixed window) plus a daily total. A request reserves its
 * weight before it is sent; responses correct the estimate from `ratelimit-*` headers; a 429 pauses
 * every request on that key until `retry-after`. Waiting requests are served round-robin across
 * partitions so one busy partition cannot starve the others. A wait longer than `maxWaitMs`
 * (daily quota spent) is not waited: it throws QuotaExhaustedError with the reset time.
 */

/** Every key was rejected by the server (401/403): nothing can be sent. */
export class NoUsableKeyError extends Error {
  override name = 'NoUsableKeyError';
  constructor() {
    super('no usable API key left: the server rejected every configured key');
  }
}

export interface Grant {
  keyIndex: number;
  weight: number;
  /** The bucket window this reservation was made in; headers from older windows are stale. */
  epoch: number;
}

/** What a response told us about the key's quota. */
export interface QuotaHeaders {
  limit?: number;
  remaining?: number;
  /** Time to the window reset, ms. */
  resetMs?: number;
  /** Window length from `ratelimit-policy` (`<limit>;w=<seconds>`), ms. */
  windowMs?: number;
}

export interface RateLimiterOptions {
  /** Number of API keys (0 = keyless: one bucket). */
  keyCount: number;
  /** The budget of every key, unless `keyBudgets` gives one per key. */
  budget: QuotaBudget;
  /** Per key (index = key index): keys of different tiers or plans. Missing entries use `budget`. */
  keyBudgets?: readonly (QuotaBudget | undefined)[];
  /** Longest wait done inside the limiter; longer ones throw QuotaExhaustedError. */
  maxWaitMs: number;
  /** Keep the configured window length even if headers announce another. */
  fixedWindow?: boolean;
  now?: () => number;
}

interface Bucket {
  index: number;
  limit: number;
  windowMs: number;
  /** CU reserved in the current window. */
  spent: number;
  /** CU per day of this key's plan. */
  perDay: number;
  dayMs: number;
  windowEndsAt: number;
  /** True once the window boundary was learned from the server (429); until then it is a clock-aligned guess. */
  phaseKnown: boolean;
  epoch: number;
  /** Weight in flight reserved in the current epoch. */
  inFlight: number;
  daySpent: number;
  dayEndsAt: number;
  pausedUntil: number;
  disabled: boolean;
}

interface Waiter {
  weight: number;
  resolve: (grant: Grant) => void;
  reject: (error: Error) => void;
}

export interface RateLimiterStats {
  waits: number;
  waitedMs: number;
  pauses: number;
  keys: { index: number; limit: number; windowMs: number; spent: number; daySpent: number; pausedUntil: number; disabled: boolean }[];
}

const alignedEnd = (now: number, span: number) => (Math.floor(now / span) + 1) * span;

export class RateLimiter {
  private readonly buckets: Bucket[];
  private readonly maxWaitMs: number;
  private readonly fixedWindow: boolean;
  private readonly now: () => number;
  /** Waiters per partition, and the round-robin order of partitions with waiters. */
  private readonly queues = new Map<string, Waiter[]>();
  private readonly ring: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private readonly counters = { waits: 0, waitedMs: 0, pauses: 0 };

  constructor(options: RateLimiterOptions) {
    this.maxWaitMs = options.maxWaitMs;
    this.fixedWindow = options.fixedWindow ?? false;
    this.now = options.now ?? (() => Date.now());
    const now = this.now();
    this.buckets = Array.from({ length: Math.max(1, options.keyCount) }, (_, index) => {
      const own = options.keyBudgets?.[index] ?? options.budget;
      return {
        index,
        limit: own.perWindow,
        windowMs: own.windowMs,
        spent: 0,
        perDay: own.perDay,
        dayMs: own.dayMs,
        // Servers align windows to the clock (the simulator does); a wrong guess costs one 429, then the phase is known.
        windowEndsAt: alignedEnd(now, own.windowMs),
        phaseKnown: false,
        epoch: 0,
        inFlight: 0,
        daySpent: 0,
        dayEndsAt: alignedEnd(now, own.dayMs),
        pausedUntil: 0,
        disabled: false,
      };
    });
  }

  /** Reserves `weight` CU on the key with the most budget left; waits (fairly, per partition) when none has enough. */
  acquire(weight: number, partition = ''): Promise<Grant> {
    return new Promise<Grant>((resolve, reject) => {
      const queue = this.queues.get(partition);
      const waiter = { weight, resolve, reject };
      if (queue) queue.push(waiter);
      else {
        this.queues.set(partition, [waiter]);
        this.ring.push(partition);
      }
      this.pump();
    });
  }

  /** A response (any status but 429) arrived for `grant`. */
  settle(grant: Grant, headers: QuotaHeaders = {}): void {
    const bucket = this.buckets[grant.keyIndex];
    this.refresh(bucket);
    const current = grant.epoch === bucket.epoch;
    if (current) bucket.inFlight -= grant.weight;
    if (headers.limit !== undefined && headers.limit > 0 && headers.limit !== bucket.limit) bucket.limit = headers.limit;
    if (!this.fixedWindow && headers.windowMs !== undefined && headers.windowMs > 0 && headers.windowMs !== bucket.windowMs) {
      bucket.windowMs = headers.windowMs;
      if (!bucket.phaseKnown) bucket.windowEndsAt = Math.min(bucket.windowEndsAt, alignedEnd(this.now(), bucket.windowMs));
    }
    if (headers.resetMs !== undefined) {
      // Whole seconds on the wire: only ever move the boundary later, so rounding cannot make us refill early.
      bucket.windowEndsAt = Math.max(bucket.windowEndsAt, this.now() + headers.resetMs);
      bucket.phaseKnown = true;
    }
    // Headers from a request of an older window describe that window: ignore their remaining.
    if (current && headers.remaining !== undefined) {
      const serverSpent = bucket.limit - headers.remaining;
      // The server counted more than we ever sent in this window (another process on this key, or a
      // window guess that was off): adopt its count plus what we still have in flight. In the normal
      // case the server has counted at most what we sent, and our own reservations stay the truth.
      if (serverSpent > bucket.spent) bucket.spent = serverSpent + bucket.inFlight;
    }
    this.pump();
  }

  /** The request failed without a usable response (network, timeout): release nothing, the CU may have been charged. */
  abandon(grant: Grant): void {
    const bucket = this.buckets[grant.keyIndex];
    if (grant.epoch === bucket.epoch) bucket.inFlight -= grant.weight;
    this.pump();
  }

  /** A 429: pause every request on this key until `retryAfterMs`, which also marks the server's window boundary. */
  rateLimited(grant: Grant, retryAfterMs: number | undefined, headers: QuotaHeaders = {}): void {
    const bucket = this.buckets[grant.keyIndex];
    if (grant.epoch === bucket.epoch) bucket.inFlight -= grant.weight;
    if (headers.limit !== undefined && headers.limit > 0) bucket.limit = headers.limit;
    const now = this.now();
    const waitMs = retryAfterMs ?? headers.resetMs ?? bucket.windowMs;
    const until = now + waitMs;
    if (until > bucket.pausedUntil) {
      this.counters.pauses++;
      bucket.pausedUntil = until;
      bucket.windowEndsAt = until;
      bucket.phaseKnown = true;
      bucket.spent = bucket.limit;
      bucket.epoch++;
      bucket.inFlight = 0;
      // A wait beyond one window is the daily quota: remember it so the daily estimate agrees.
      if (waitMs > bucket.windowMs) bucket.dayEndsAt = Math.max(bucket.dayEndsAt, until);
    }
    this.pump();
  }

  /** Stops using a key (revoked or unknown to the server). */
  disableKey(index: number): void {
    this.buckets[index].disabled = true;
    this.pump();
  }

  usableKeys(): number {
    return this.buckets.filter((b) => !b.disabled).length;
  }

  stats(): RateLimiterStats {
    return {
      ...this.counters,
      keys: this.buckets.map((b) => ({ index: b.index, limit: b.limit, windowMs: b.windowMs, spent: b.spent, daySpent: b.daySpent, pausedUntil: b.pausedUntil, disabled: b.disabled })),
    };
  }

  private refresh(bucket: Bucket): void {
    const now = this.now();
    if (now >= bucket.windowEndsAt) {
      // Keep the cadence (+= window) so the phase learned from the server does not drift.
      const steps = Math.floor((now - bucket.windowEndsAt) / bucket.windowMs) + 1;
      bucket.windowEndsAt += steps * bucket.windowMs;
      bucket.spent = 0;
      bucket.inFlight = 0;
      bucket.epoch++;
    }
    if (now >= bucket.dayEndsAt) {
      bucket.dayEndsAt = alignedEnd(now, bucket.dayMs);
      bucket.daySpent = 0;
    }
  }

  /** When this bucket could serve `weight` (now if it can), or Infinity if never. */
  private readyAt(bucket: Bucket, weight: number, now: number): number {
    if (bucket.disabled) return Number.POSITIVE_INFINITY;
    this.refresh(bucket);
    if (bucket.daySpent + weight > bucket.perDay) return Math.max(bucket.dayEndsAt, bucket.pausedUntil);
    let at = Math.max(now, bucket.pausedUntil);
    if (bucket.spent + weight > bucket.limit && at < bucket.windowEndsAt) at = bucket.windowEndsAt;
    return at;
  }

  private pump(): void {
    while (this.ring.length > 0) {
      const partition = this.ring[0];
      const queue = this.queues.get(partition)!;
      const waiter = queue[0];
      const now = this.now();
      let best: Bucket | undefined;
      let earliest = Number.POSITIVE_INFINITY;
      for (const bucket of this.buckets) {
        const at = this.readyAt(bucket, waiter.weight, now);
        if (at <= now) {
          if (!best || bucket.limit - bucket.spent > best.limit - best.spent) best = bucket;
        } else earliest = Math.min(earliest, at);
      }
      if (!best) {
        if (earliest - now <= this.maxWaitMs) {
          this.wakeAt(earliest);
          return;
        }
        this.take(partition, queue);
        waiter.reject(
          earliest === Number.POSITIVE_INFINITY
            ? new NoUsableKeyError()
            : new QuotaExhaustedError(new Date(earliest), `no API key has ${waiter.weight} CU before ${new Date(earliest).toISOString()}`),
        );
        continue;
      }
      this.take(partition, queue);
      best.spent += waiter.weight;
      best.daySpent += waiter.weight;
      best.inFlight += waiter.weight;
      waiter.resolve({ keyIndex: best.index, weight: waiter.weight, epoch: best.epoch });
    }
  }

  /** Removes the head waiter of `partition` and rotates the partition to the back of the ring. */
  private take(partition: string, queue: Waiter[]): void {
    queue.shift();
    this.ring.shift();
    if (queue.length > 0) this.ring.push(partition);
    else this.queues.delete(partition);
  }

  private wakeAt(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, at - this.now());
    this.counters.waits++;
    this.counters.waitedMs += delay;
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delay);
  }
}
