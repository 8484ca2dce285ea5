import { ApiError } from './apiError.ts';
import type { Tier } from './auth.ts';

export interface Budget {
  perMinute: number;
  perDay: number;
}

/** CU budgets per tier (docs/public-service.md, Compute units). */
export const DEFAULT_BUDGETS: Record<Tier, Budget> = {
  none: { perMinute: 6000, perDay: 1_200_000 },
  free: { perMinute: 8000, perDay: 2_000_000 },
  base: { perMinute: 10_000, perDay: 3_750_000 },
  growth: { perMinute: 14_000, perDay: 11_200_000 },
  pro: { perMinute: 20_000, perDay: 25_000_000 },
};

/** The holder-metrics service has its own scale: 8,000 CU per minute, no daily cap documented. */
export const DEFAULT_METRICS_BUDGET: Budget = { perMinute: 8000, perDay: Number.POSITIVE_INFINITY };

export interface RateLimitOptions {
  budgets?: Partial<Record<Tier, Budget>>;
  metricsBudget?: Budget;
  /** Length of the fixed window (default 60 s); windows are aligned to the clock. */
  windowMs?: number;
  /** Length of the daily window (default 24 h), also aligned to the clock. */
  dayMs?: number;
}

interface Usage {
  window: number;
  used: number;
  day: number;
  usedDay: number;
}

/**
 * Fixed-window CU limiter: the window is floor(now / windowMs), so every client shares the same
 * boundaries and `ratelimit-reset` is simply the time left to the next boundary.
 */
export class RateLimiter {
  private readonly budgets: Record<Tier, Budget>;
  private readonly metricsBudget: Budget;
  readonly windowMs: number;
  private readonly dayMs: number;
  private readonly usage = new Map<string, Usage>();

  constructor(opts: RateLimitOptions, private readonly clock: () => number) {
    this.budgets = { ...DEFAULT_BUDGETS, ...opts.budgets };
    this.metricsBudget = opts.metricsBudget ?? DEFAULT_METRICS_BUDGET;
    this.windowMs = opts.windowMs ?? 60_000;
    this.dayMs = opts.dayMs ?? 86_400_000;
  }

  /**
   * Charges `cost` CU to the client; returns the headers to send. Throws 429 (with
   * ratelimit-reset and retry-after in seconds) when the minute or the day budget is spent.
   */
  charge(clientId: string, tier: Tier | 'metrics', cost: number): Record<string, string> {
    const budget = tier === 'metrics' ? this.metricsBudget : this.budgets[tier];
    const now = this.clock();
    const window = Math.floor(now / this.windowMs);
    const day = Math.floor(now / this.dayMs);
    const id = `${tier === 'metrics' ? 'm' : 'd'}|${clientId}`;
    let u = this.usage.get(id);
    if (!u) {
      u = { window, used: 0, day, usedDay: 0 };
      this.usage.set(id, u);
    }
    if (u.window !== window) {
      u.window = window;
      u.used = 0;
    }
    if (u.day !== day) {
      u.day = day;
      u.usedDay = 0;
    }
    const windowSec = Math.round(this.windowMs / 1000) || 1;
    const headers: Record<string, string> = {
      'ratelimit-policy': `${budget.perMinute};w=${windowSec}`,
      'ratelimit-limit': String(budget.perMinute),
    };
    const resetMs = (window + 1) * this.windowMs - now;
    if (u.usedDay + cost > budget.perDay) {
      const dayResetSec = Math.max(1, Math.ceil(((day + 1) * this.dayMs - now) / 1000));
      throw new ApiError(429, 'Daily compute unit quota exceeded', {
        ...headers,
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(dayResetSec),
        'retry-after': String(dayResetSec),
      });
    }
    if (u.used + cost > budget.perMinute) {
      const resetSec = Math.max(1, Math.ceil(resetMs / 1000));
      throw new ApiError(429, 'Rate limit exceeded', {
        ...headers,
        'ratelimit-remaining': String(Math.max(0, budget.perMinute - u.used)),
        'ratelimit-reset': String(resetSec),
        'retry-after': String(resetSec),
      });
    }
    u.used += cost;
    u.usedDay += cost;
    headers['ratelimit-remaining'] = String(budget.perMinute - u.used);
    return headers;
  }
}
