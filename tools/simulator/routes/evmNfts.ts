import { notFound } from '../http/apiError.ts';
import { evmAddress } from '../http/params.ts';
import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';
import { nftMetadata, tokenUri } from '../evm/nftMetadata.ts';
import { nftMetadataUpdatedAt, transfersThrough } from '../evm/ercBalances.ts';
import { evmChainOf } from './evmChain.ts';

/** One NFT (ERC-721 or ERC-1155 token id) of a collection; 404 until it has been minted. */
export const nftTokenRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId',
  weight: WEIGHT.medium,
  service: 'data',
  handler(ctx) {
    const model = evmChainOf(ctx);
    const address = evmAddress(ctx.params.address, 'address');
    const tokenId = ctx.params.tokenId;
    const token = model.token(address);
    if (!token || token.ercType === 'ERC-20') throw notFound(`NFT collection ${address} not found`);
    const ledger = model.ledgers[token.t];
    const tip = model.chain.tip();
    const owners = ledger.owners(transfersThrough(model, ledger, tip));
    const coin = owners.findIndex((o, c) => o !== null && ledger.tokenIdOf(c) === tokenId);
    if (coin < 0) throw notFound(`Token ${tokenId} of ${address} not found`);
    const base = {
      address, ercType: token.ercType, tokenId, tokenUri: tokenUri(token, tokenId),
      metadata: nftMetadata(model.chain.domain, token, tokenId, nftMetadataUpdatedAt(model, ledger, tokenId, tip)),
    };
    return token.ercType === 'ERC-721' ? { ...base, name: token.name, symbol: token.symbol, ownerAddress: owners[coin] } : base;
  },
};
