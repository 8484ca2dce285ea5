import { mulberry32 } from '../world/hash.ts';
import { ApiError } from './apiError.ts';

export type FaultKind = 'http500' | 'http502' | 'http503' | 'burst429' | 'reset' | 'slow' | 'truncated' | 'shortPage' | 'expiredToken';
export const FAULT_KINDS: readonly FaultKind[] = ['http500', 'http502', 'http503', 'burst429', 'reset', 'slow', 'truncated', 'shortPage', 'expiredToken'];

/** What to do to one request. Faults change only the response, never the world. */
export interface FaultPlan {
  /** Answer with this error instead of running the handler. */
  error?: ApiError;
  /** Destroy the socket after sending part of the response. */
  reset?: boolean;
  /** Send only half of the JSON body (status 200, chunked, properly terminated). */
  truncate?: boolean;
  /** Delay before answering. */
  delayMs?: number;
  /** For the shortPage hook: limit -> smaller limit. */
  shortLimit(limit: number): number;
}

const BURST_LENGTH = 3;

/**
 * Injects faults with per-kind probabilities. Every request draws the same number of values from
 * one seeded stream, so a given request sequence gets the same faults for the same `faultSeed`.
 */
export class FaultInjector {
  private probs: Partial<Record<FaultKind, number>>;
  private readonly rand: () => number;
  private readonly bursts = new Map<string, number>();
  readonly injected: Record<FaultKind, number> = emptyCounts();

  constructor(probs: Partial<Record<FaultKind, number>> = {}, seed = 1) {
    this.probs = { ...probs };
    this.rand = mulberry32(seed);
  }

  set(probs: Partial<Record<FaultKind, number>>): void {
    this.probs = { ...probs };
  }

  resetCounts(): void {
    for (const k of FAULT_KINDS) this.injected[k] = 0;
  }

  plan(clientId: string, hasToken: boolean): FaultPlan {
    const draws = {} as Record<FaultKind, number>;
    for (const k of FAULT_KINDS) draws[k] = this.rand();
    const extra = this.rand();
    const fires = (k: FaultKind): boolean => draws[k] < (this.probs[k] ?? 0);
    const plan: FaultPlan = { shortLimit: (limit) => limit };

    const burstLeft = this.bursts.get(clientId) ?? 0;
    if (burstLeft > 0) {
      if (burstLeft === 1) this.bursts.delete(clientId);
      else this.bursts.set(clientId, burstLeft - 1);
      plan.error = tooMany();
      return plan;
    }
    for (const [kind, status] of [['http500', 500], ['http502', 502], ['http503', 503]] as const) {
      if (fires(kind)) {
        this.injected[kind]++;
        plan.error = new ApiError(status, `Injected fault ${status}`);
        return plan;
      }
    }
    if (hasToken && fires('expiredToken')) {
      this.injected.expiredToken++;
      plan.error = new ApiError(400, 'Page token expired');
      return plan;
    }
    if (fires('burst429')) {
      this.injected.burst429++;
      this.bursts.set(clientId, BURST_LENGTH - 1);
      plan.error = tooMany();
      return plan;
    }
    if (fires('reset')) {
      this.injected.reset++;
      plan.reset = true;
    } else if (fires('truncated')) {
      this.injected.truncated++;
      plan.truncate = true;
    }
    if (fires('slow')) {
      this.injected.slow++;
      plan.delayMs = 200 + Math.floor(extra * 1300);
    }
    if (fires('shortPage')) {
      plan.shortLimit = (limit) => {
        if (limit <= 1) return limit;
        this.injected.shortPage++;
        return 1 + Math.floor(extra * (limit - 1));
      };
    }
    return plan;
  }
}

function tooMany(): ApiError {
  return new ApiError(429, 'Too many requests', { 'retry-after': '1', 'ratelimit-reset': '1' });
}

export function emptyCounts(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}
