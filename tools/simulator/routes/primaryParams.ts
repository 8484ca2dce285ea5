import { badRequest } from '../http/apiError.ts';
import { enumParam, isEvmAddress, listParam, network } from '../http/params.ts';
import type { RequestContext } from '../http/route.ts';
import { NETWORKS, resolveChain, type ChainAlias, type NetworkName } from '../primary/chains.ts';
import type { NetworkGenerator } from '../primary/generator.ts';
import { normalizeAddress } from '../primary/ids.ts';
import type { PrimaryWorld } from '../primary/primaryWorld.ts';

/** Request parsing shared by the primary-network routes. */

export interface PnTarget {
  net: NetworkName;
  gen: NetworkGenerator;
}

export function pnNetwork(ctx: RequestContext): PnTarget {
  const net = network(ctx.params);
  return { net, gen: ctx.world.part<PrimaryWorld>('primary').network(net) };
}

/** `blockchainId`: alias or base58 id of the network's P/X/C chain; `only` narrows it (vertices). */
export function pnChain(ctx: RequestContext, net: NetworkName, only?: ChainAlias): ChainAlias {
  const chain = resolveChain(net, ctx.params.blockchainId);
  if (!chain || (only && chain !== only)) {
    const allowed = only ? `${only} or ${NETWORKS[net].chainIds[only]}` : 'p-chain, x-chain, c-chain or their blockchain ids';
    throw badRequest(`blockchainId must be ${allowed}, got "${ctx.params.blockchainId}"`);
  }
  return chain;
}

export const chainInfo = (chain: ChainAlias, net: NetworkName) => ({ chainName: chain, network: net });

/**
 * Comma-separated addresses in bare, P- or X- form for this network (returned bare); with
 * `allowEvm`, 0x addresses too (C-chain atomic transaction lookups), returned lower-case.
 */
export function parseAddresses(raw: string[], name: string, net: NetworkName, opts: { max: number; allowEvm?: boolean }): string[] {
  if (raw.length > opts.max) throw badRequest(`${name} accepts at most ${opts.max} addresses`);
  return raw.map((a) => {
    if (opts.allowEvm && isEvmAddress(a)) return a.toLowerCase();
    const bare = normalizeAddress(a, NETWORKS[net].hrp);
    if (!bare) throw badRequest(`${name}: invalid address format "${a}"`);
    return bare;
  });
}

export const queryAddresses = (ctx: RequestContext, net: NetworkName, opts: { max: number; allowEvm?: boolean }) =>
  parseAddresses(listParam(ctx.query, 'addresses'), 'addresses', net, opts);

export function sortOrder(ctx: RequestContext, def: 'asc' | 'desc'): 'asc' | 'desc' {
  return enumParam(ctx.query, 'sortOrder', ['asc', 'desc'] as const) ?? def;
}

/** min <= max for a pair of optional bounds, else 400 naming both. */
export function ordered<T extends number | bigint>(min: T | undefined, max: T | undefined, minName: string, maxName: string): void {
  if (min !== undefined && max !== undefined && min > max) throw badRequest(`${minName} must be <= ${maxName}`);
}
