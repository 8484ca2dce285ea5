import { notFound } from '../http/apiError.ts';
import { enumParam, pageSize, txHash } from '../http/params.ts';
import { JsonItemWriter } from '../http/jsonText.ts';
import type { JsonSpan } from '../http/jsonText.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { txDetailJson } from '../evm/txDetail.ts';
import { evmChainOf } from './evmChain.ts';

/**
 * Latest transactions of a chain, descending. The cursor is the global tx index to continue
 * below, fixed at the first page, so blocks added during a walk never shift it.
 */
export const chainTransactionsRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/transactions',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'transactions' },
  handler(ctx) {
    const model = evmChainOf(ctx);
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const status = enumParam(ctx.query, 'status', ['failed', 'success'] as const);
    const { txs } = model;
    const prev = (x: number): number => {
      if (status === 'failed') return txs.prevFailed(x);
      let g = x - 1;
      if (status === 'success') while (g >= 0 && txs.isFailed(g)) g--;
      return g;
    };
    const { items, nextPageToken } = ctx.page.paginate<number, JsonSpan>({
      pageSize: size,
      first: model.chain.totalTxs(),
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

export const transactionDetailRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/transactions/:txHash',
  weight: WEIGHT.medium,
  service: 'data',
  handler(ctx) {
    const model = evmChainOf(ctx);
    const hash = txHash(ctx.params.txHash);
    const g = model.chain.txIndexOf(hash);
    if (g === null) throw notFound(`Transaction ${hash} not found`);
    return txDetailJson(ctx.world.evm, model, g);
  },
};
