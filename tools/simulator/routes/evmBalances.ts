import { boolParam, evmAddress, listParam, pageSize } from '../http/params.ts';
import { WEIGHT } from '../http/route.ts';
import type { RequestContext, RouteDef } from '../http/route.ts';
import { blockNumberParam } from '../evm/blockRange.ts';
import type { EvmChainModel } from '../evm/chainModel.ts';
import { erc1155Owned, erc20Balance, erc721Owned, nftMetadataUpdatedAt } from '../evm/ercBalances.ts';
import { currencyParam, money, valueOf } from '../evm/money.ts';
import { nativeTokenBalanceJson } from '../evm/nativeBalance.ts';
import { nftMetadata, tokenUri } from '../evm/nftMetadata.ts';
import type { TokenLedger } from '../evm/tokens.ts';
import { evmChainOf } from './evmChain.ts';

const BALANCE_PAGE = { def: 10, max: 500 };

export const nativeBalanceRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/addresses/:address/balances:getNative',
  weight: WEIGHT.medium,
  service: 'data',
  handler(ctx) {
    const model = evmChainOf(ctx);
    const address = evmAddress(ctx.params.address, 'address');
    const block = blockNumberParam(ctx.query, model.chain);
    return { nativeTokenBalance: nativeTokenBalanceJson(model, address, block, currencyParam(ctx.query)) };
  },
};

/**
 * The three ERC balance lists share one shape: the block is pinned in the cursor at the first
 * page (default latest), so every page describes the same state even while the chain grows.
 */
function balanceList(
  ctx: RequestContext,
  itemsKey: string,
  build: (model: EvmChainModel, ledgers: TokenLedger[], address: string, block: number) => Record<string, unknown>[],
  ercType: string,
  contractParam: string,
  hasBlockNumber: boolean,
): Record<string, unknown> {
  const model = evmChainOf(ctx);
  const address = evmAddress(ctx.params.address, 'address');
  const size = pageSize(ctx.query, BALANCE_PAGE);
  const currency = currencyParam(ctx.query);
  const filter = new Set(listParam(ctx.query, contractParam).map((a) => evmAddress(a, contractParam)));
  const first = hasBlockNumber ? blockNumberParam(ctx.query, model.chain) : model.chain.tip();
  const ledgers = model.ledgers.filter((l) => l.token.ercType === ercType && (filter.size === 0 || filter.has(l.token.address)));
  let block = first;
  const { items, nextPageToken } = ctx.page.paginate<{ o: number; b: number }, Record<string, unknown>>({
    pageSize: size,
    first: { o: 0, b: first },
    fetch: (cur, limit) => {
      block = cur.b;
      const all = build(model, ledgers, address, cur.b);
      const items = all.slice(cur.o, cur.o + limit);
      const o = cur.o + items.length;
      return { items, next: o < all.length ? { o, b: cur.b } : undefined };
    },
  });
  return { nextPageToken, nativeTokenBalance: nativeTokenBalanceJson(model, address, block, currency), [itemsKey]: items };
}

export const erc20BalancesRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/addresses/:address/balances:listErc20',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'erc20TokenBalances' },
  handler(ctx) {
    const filterSpam = boolParam(ctx.query, 'filterSpamTokens', true);
    const currency = currencyParam(ctx.query);
    return balanceList(
      ctx,
      'erc20TokenBalances',
      (model, ledgers, address, block) =>
        ledgers
          .filter((l) => !(filterSpam && l.token.tokenReputation === 'Malicious'))
          .map((l) => ({ l, balance: erc20Balance(model, l, address, block) }))
          .filter((x) => x.balance > 0n)
          .map(({ l, balance }) => ({
            address: l.token.address, name: l.token.name, symbol: l.token.symbol, decimals: l.token.decimals, logoUri: l.token.logoUri,
            ercType: l.token.ercType, price: money(l.token.priceUsd, currency), chainId: model.spec.chainId, balance: String(balance),
            balanceValue: valueOf(balance, l.token.decimals, l.token.priceUsd, currency), tokenReputation: l.token.tokenReputation,
          })),
      'ERC-20',
      'contractAddresses',
      true,
    );
  },
};

export const erc721BalancesRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/addresses/:address/balances:listErc721',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'erc721TokenBalances' },
  handler(ctx) {
    return balanceList(
      ctx,
      'erc721TokenBalances',
      (model, ledgers, address, block) =>
        ledgers.flatMap((l) =>
          erc721Owned(model, l, address, block).map((tokenId) => ({
            address: l.token.address, name: l.token.name, symbol: l.token.symbol, ercType: l.token.ercType, tokenId,
            tokenUri: tokenUri(l.token, tokenId), metadata: nftMetadata(model.chain.domain, l.token, tokenId, nftMetadataUpdatedAt(model, l, tokenId, block)),
            ownerAddress: address, chainId: model.spec.chainId,
          })),
        ),
      'ERC-721',
      'contractAddress',
      false,
    );
  },
};

export const erc1155BalancesRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/addresses/:address/balances:listErc1155',
  weight: WEIGHT.medium,
  service: 'data',
  list: { itemsKey: 'erc1155TokenBalances' },
  handler(ctx) {
    return balanceList(
      ctx,
      'erc1155TokenBalances',
      (model, ledgers, address, block) =>
        ledgers.flatMap((l) =>
          erc1155Owned(model, l, address, block).map(({ tokenId, balance }) => ({
            address: l.token.address, ercType: l.token.ercType, tokenId, tokenUri: tokenUri(l.token, tokenId),
            metadata: nftMetadata(model.chain.domain, l.token, tokenId, nftMetadataUpdatedAt(model, l, tokenId, block)),
            chainId: model.spec.chainId, balance: String(balance),
          })),
        ),
      'ERC-1155',
      'contractAddress',
      true,
    );
  },
};
