import { badRequest } from '../http/apiError.ts';
import { intParam } from '../http/params.ts';
import type { EvmChain } from './chain.ts';

/** Global tx index range [g0, g1) of startBlock (inclusive) .. endBlock (exclusive), clamped to the chain. */
export interface TxRange {
  g0: number;
  g1: number;
}

export function blockRangeParams(query: URLSearchParams, chain: EvmChain): TxRange {
  const start = intParam(query, 'startBlock', { min: 0 });
  const end = intParam(query, 'endBlock', { min: 0 });
  if (start !== undefined && end !== undefined && end < start) throw badRequest('endBlock must be >= startBlock');
  const h = chain.height();
  return { g0: chain.txsBefore(Math.min(start ?? 0, h)), g1: chain.txsBefore(Math.min(end ?? h, h)) };
}

/** Optional `blockNumber` (decimal string); defaults to the tip, must not be beyond it. */
export function blockNumberParam(query: URLSearchParams, chain: EvmChain): number {
  const b = intParam(query, 'blockNumber', { min: 0 });
  if (b === undefined) return chain.tip();
  if (b > chain.tip()) throw badRequest(`blockNumber must be <= ${chain.tip()} (latest block)`);
  return b;
}
