import { pageSize } from '../http/params.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { JsonText } from '../http/jsonText.ts';
import { blockJsonText } from '../evm/blocks.ts';
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
    const { items, nextPageToken } = ctx.page.paginate<number, JsonText>({
      pageSize: size,
      first: model.chain.tip(),
      fetch: (top, limit) => {
        const items: JsonText[] = [];
        for (let b = top; b >= 0 && items.length < limit; b--) items.push(new JsonText(blockJsonText(model, model.txs, b)));
        const next = top - items.length;
        return { items, next: next >= 0 ? next : undefined };
      },
    });
    return { nextPageToken, blocks: items };
  },
};
