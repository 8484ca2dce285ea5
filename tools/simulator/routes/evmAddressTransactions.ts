import { evmAddress, pageSize } from '../http/params.ts';
import { JsonItemWriter } from '../http/jsonText.ts';
import type { JsonSpan } from '../http/jsonText.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { prevInProgression } from '../evm/addressPool.ts';
import { blockRangeParams } from '../evm/blockRange.ts';
import { evmChainOf } from './evmChain.ts';

/**
 * Native transactions of an address in [startBlock, endBlock), latest first. An address's txs are
 * the union of its `from` progression (g ≡ slot mod E) and `to` progression (g ≡ r mod P), so
 * the next older tx below any index is the larger of two O(1) candidates.
 */
export const addressTransactionsRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/addresses/:address/transactions:listNative',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'transactions' },
  handler(ctx) {
    const model = evmChainOf(ctx);
    const address = evmAddress(ctx.params.address, 'address');
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const range = blockRangeParams(ctx.query, model.chain);
    const { pool, txs } = model;
    const slot = pool.slotOf(address);
    const prev = (x: number): number => {
      if (slot === undefined) return -1;
      const byTo = prevInProgression(pool.toResidue(slot), pool.P, x);
      const byFrom = slot < pool.E ? prevInProgression(slot, pool.E, x) : -1;
      const g = Math.max(byTo, byFrom);
      return g >= range.g0 ? g : -1;
    };
    const { items, nextPageToken } = ctx.page.paginate<number, JsonSpan>({
      pageSize: size,
      first: range.g1,
      fetch: (below, limit) => {
        const out = new JsonItemWriter(limit);
        let x = below;
        while (out.items.length < limit) {
          const g = prev(x);
          if (g < 0) return { items: out.items, next: undefined };
          txs.writeNative(out.begin(), g);
          out.end();
          x = g;
        }
        return { items: out.items, next: prev(x) >= 0 ? x : undefined };
      },
    });
    return { nextPageToken, transactions: items };
  },
};
