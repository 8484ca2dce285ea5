import { evmAddress, pageSize } from '../http/params.ts';
import { JsonItemWriter } from '../http/jsonText.ts';
import type { JsonSpan } from '../http/jsonText.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { blockRangeParams } from '../evm/blockRange.ts';
import { writeTransfer } from '../evm/transferJson.ts';
import { evmChainOf } from './evmChain.ts';

/** Transfers of an ERC-20/721/1155 contract in [startBlock, endBlock), latest first (by transfer ordinal). */
export const tokenTransfersRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/tokens/:address/transfers',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'transfers' },
  handler(ctx) {
    const model = evmChainOf(ctx);
    const address = evmAddress(ctx.params.address, 'address');
    const size = pageSize(ctx.query, { def: 10, max: 100 });
    const range = blockRangeParams(ctx.query, model.chain);
    const token = model.token(address);
    // A valid address that is not a token contract of this chain simply has no transfers.
    if (!token) return { transfers: [] };
    const ledger = model.ledgers[token.t];
    const k0 = ledger.transfersBefore(range.g0);
    const { items, nextPageToken } = ctx.page.paginate<number, JsonSpan>({
      pageSize: size,
      first: ledger.transfersBefore(range.g1),
      fetch: (below, limit) => {
        const out = new JsonItemWriter(limit);
        let k = below - 1;
        for (; k >= k0 && out.items.length < limit; k--) {
          writeTransfer(out.begin(), model, ledger, k);
          out.end();
        }
        return { items: out.items, next: k >= k0 ? k + 1 : undefined };
      },
    });
    return { nextPageToken, transfers: items };
  },
};
