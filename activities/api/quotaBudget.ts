/** Compute-unit budgets per quota tier (public service facts), and overrides for tests and odd deployments. */

export type QuotaTier = 'none' | 'free' | 'base' | 'growth' | 'pro';

export const TIER_BUDGETS: Record<QuotaTier, { perMinute: number; perDay: number }> = {
  none: { perMinute: 6_000, perDay: 1_200_000 },
  free: { perMinute: 8_000, perDay: 2_000_000 },
  base: { perMinute: 10_000, perDay: 3_750_000 },
  growth: { perMinute: 14_000, perDay: 11_200_000 },
  pro: { perMinute: 20_000, perDay: 25_000_000 },
};

/** The holder-metrics service: its own 8,000 CU per minute, no documented daily cap. */
export const METRICS_BUDGET = { perMinute: 8_000, perDay: Number.POSITIVE_INFINITY };

export interface QuotaBudget {
  /** CU per window (per minute on the public service). */
  perWindow: number;
  windowMs: number;
  perDay: number;
  dayMs: number;
}

export interface RateLimitOverride {
  perWindow?: number;
  windowMs?: number;
  perDay?: number;
  dayMs?: number;
}

export function budgetFor(base: { perMinute: number; perDay: number }, override: RateLimitOverride = {}): QuotaBudget {
  return {
    perWindow: override.perWindow ?? base.perMinute,
    windowMs: override.windowMs ?? 60_000,
    perDay: override.perDay ?? base.perDay,
    dayMs: override.dayMs ?? 86_400_000,
  };
}
