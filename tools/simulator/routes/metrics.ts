import { badRequest } from '../http/apiError.ts';
import { evmAddress, intParam, pageSize, requiredString } from '../http/params.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { holdersCached } from '../evm/holders.ts';
import { evmChainOf } from './evmChain.ts';

/**
 * Holder metrics (metrics listener): addresses that held more than `threshold` of a contract at
 * some instant of [startTimestamp, endTimestamp]. The tip is pinned in the cursor so pages agree.
 * sortKey is the holder's balance at the end of the frame, as a decimal string (an integer of up to
 * 78 digits: the public service's type, and the API's convention for large quantities).
 */
export const holdersRoute: RouteDef = {
  method: 'GET',
  path: '/v2/chains/:chainId/contracts/:address/balances',
  weight: WEIGHT.metricsMedium,
  service: 'metrics',
  list: { itemsKey: 'addresses' },
  handler(ctx) {
    const model = evmChainOf(ctx);
    const address = evmAddress(ctx.params.address, 'address');
    const rawThreshold = requiredString(ctx.query, 'threshold');
    if (!/^\d+$/.test(rawThreshold)) throw badRequest('threshold must be a non-negative integer string');
    const threshold = BigInt(rawThreshold);
    const start = intParam(ctx.query, 'startTimestamp', { min: 0 }) ?? 0;
    const end = intParam(ctx.query, 'endTimestamp', { min: 0 });
    if (end !== undefined && end < start) throw badRequest('endTimestamp must be >= startTimestamp');
    const size = pageSize(ctx.query, { def: 1000, max: 5000 });
    const token = model.token(address);
    if (!token) return { addresses: [] };
    const ledger = model.ledgers[token.t];
    const { items, nextPageToken } = ctx.page.paginate<{ o: number; tip: number }, { address: string; sortKey: string }>({
      pageSize: size,
      first: { o: 0, tip: model.chain.tip() },
      fetch: (cur, limit) => {
        const endTs = end ?? model.chain.timestamp(cur.tip);
        const rows = holdersCached(model, ledger, threshold, start, endTs, cur.tip);
        const items = rows.slice(cur.o, cur.o + limit).map((r) => ({ address: r.address, sortKey: String(r.balance) }));
        const o = cur.o + items.length;
        return { items, next: o < rows.length ? { o, tip: cur.tip } : undefined };
      },
    });
    return { nextPageToken, addresses: items };
  },
};

export const metricsRoutes: RouteDef[] = [holdersRoute];
