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

/** A key's plan: a tier of the table, or CU per minute and per day for a plan outside it. */
export type KeyPlan = { tier: QuotaTier } | { perMinute: number; perDay: number };

export const planBudget = (plan: KeyPlan): { perMinute: number; perDay: number } => ('tier' in plan ? TIER_BUDGETS[plan.tier] : plan);

/**
 * The budget of each API key, by position in GLACIER_API_KEY: its own entry of `keys` when the
 * config has one, else `plan` (a plan outside the tier table), else `tier`. Learning from the
 * `ratelimit-*` headers then corrects the per-window limit of each key at run time.
 */
export function keyBudgets(keyCount: number, settings: { tier: QuotaTier; plan?: KeyPlan; keys?: readonly KeyPlan[] }): { perMinute: number; perDay: number }[] {
  const fallback = planBudget(settings.plan ?? { tier: settings.tier });
  return Array.from({ length: keyCount }, (_, i) => (settings.keys?.[i] ? planBudget(settings.keys[i]) : fallback));
}
