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
  /** This request's draws, one per fault kind (in FAULT_KINDS order). */
  private readonly draws = new Float64Array(FAULT_KINDS.length);
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
    // Always the same number of draws, whatever fires (see the class comment).
    const draws = this.draws;
    for (let i = 0; i < FAULT_KINDS.length; i++) draws[i] = this.rand();
    const extra = this.rand();

    const burstLeft = this.bursts.size > 0 ? (this.bursts.get(clientId) ?? 0) : 0;
    if (burstLeft > 0) {
      if (burstLeft === 1) this.bursts.delete(clientId);
      else this.bursts.set(clientId, burstLeft - 1);
      return { error: tooMany(), shortLimit: sameLimit };
    }
    for (const [kind, status] of [['http500', 500], ['http502', 502], ['http503', 503]] as const) {
      if (this.fires(kind)) {
        this.injected[kind]++;
        return { error: new ApiError(status, `Injected fault ${status}`), shortLimit: sameLimit };
      }
    }
    if (hasToken && this.fires('expiredToken')) {
      this.injected.expiredToken++;
      return { error: new ApiError(400, 'Page token expired'), shortLimit: sameLimit };
    }
    if (this.fires('burst429')) {
      this.injected.burst429++;
      this.bursts.set(clientId, BURST_LENGTH - 1);
      return { error: tooMany(), shortLimit: sameLimit };
    }
    const reset = this.fires('reset');
    const truncate = !reset && this.fires('truncated');
    const slow = this.fires('slow');
    const short = this.fires('shortPage');
    // The usual case on the hot path: nothing fires, one shared plan.
    if (!reset && !truncate && !slow && !short) return NO_FAULT;
    const plan: FaultPlan = { shortLimit: sameLimit };
    if (reset) {
      this.injected.reset++;
      plan.reset = true;
    } else if (truncate) {
      this.injected.truncated++;
      plan.truncate = true;
    }
    if (slow) {
      this.injected.slow++;
      plan.delayMs = 200 + Math.floor(extra * 1300);
    }
    if (short) {
      plan.shortLimit = (limit) => {
        if (limit <= 1) return limit;
        this.injected.shortPage++;
        return 1 + Math.floor(extra * (limit - 1));
      };
    }
    return plan;
  }

  /** Whether fault `kind` fires on this request's draw. */
  private fires(kind: FaultKind): boolean {
    return this.draws[FAULT_INDEX[kind]] < (this.probs[kind] ?? 0);
  }
}

const sameLimit = (limit: number): number => limit;
const NO_FAULT: FaultPlan = Object.freeze({ shortLimit: sameLimit });
const FAULT_INDEX = Object.fromEntries(FAULT_KINDS.map((k, i) => [k, i])) as Record<FaultKind, number>;

function tooMany(): ApiError {
  return new ApiError(429, 'Too many requests', { 'retry-after': '1', 'ratelimit-reset': '1' });
}

export function emptyCounts(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}
