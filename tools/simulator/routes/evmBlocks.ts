import { pageSize } from '../http/params.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { JsonItemWriter } from '../http/jsonText.ts';
import type { JsonSpan } from '../http/jsonText.ts';
import { writeBlock } from '../evm/blocks.ts';
import { evmChainOf } from './evmChain.ts';

/** Latest blocks, descending. The token carries the next block number, so growth never shifts a walk. */
export const blocksRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/blocks',
  weight: WEIGHT.small,
  service: 'data',
  list: { itemsKey: 'blocks' },
  handler(ctx) {
    const model = evmChainOf(ctx);
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const { items, nextPageToken } = ctx.page.paginate<number, JsonSpan>({
      pageSize: size,
      first: model.chain.tip(),
      fetch: (top, limit) => {
        const out = new JsonItemWriter(limit, 512);
        for (let b = top; b >= 0 && out.items.length < limit; b--) {
          writeBlock(out.begin(), model, model.txs, b);
          out.end();
        }
        const next = top - out.items.length;
        return { items: out.items, next: next >= 0 ? next : undefined };
      },
    });
    return { nextPageToken, blocks: items };
  },
};
