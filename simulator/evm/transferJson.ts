import type { EvmChainModel } from './chainModel.ts';
import { nftMetadata, tokenUri } from './nftMetadata.ts';
import type { TokenContract, TransferRecord } from './tokens.ts';
import { money } from './money.ts';

/** The token object a transfer carries, keyed by its ERC type. */
export function tokenObject(model: EvmChainModel, token: TokenContract, tokenId: string | null, updatedAt: number): [string, Record<string, unknown>] {
  if (token.ercType === 'ERC-20') {
    return [
      'erc20Token',
      {
        address: token.address, name: token.name, symbol: token.symbol, decimals: token.decimals, logoUri: token.logoUri,
        ercType: token.ercType, price: money(token.priceUsd, 'usd'),
      },
    ];
  }
  const id = tokenId ?? '0';
  const nft = {
    address: token.address, ercType: token.ercType, tokenId: id, tokenUri: tokenUri(token, id),
    metadata: nftMetadata(model.chain.domain, token, id, updatedAt),
  };
  if (token.ercType === 'ERC-721') return ['erc721Token', { ...nft, name: token.name, symbol: token.symbol }];
  return ['erc1155Token', nft];
}

/** JSON text of the ERC-20 token object of each contract (it depends on the contract only). */
const erc20TokenJson = new WeakMap<TokenContract, string>();

/**
 * An entry of `/tokens/:address/transfers`, as JSON text (the list hot path). Addresses, hashes
 * and numbers need no escaping; the token object is serialized by JSON.stringify (cached for
 * ERC-20, whose token object is the same for every transfer).
 */
export function transferListText(model: EvmChainModel, token: TokenContract, tr: TransferRecord): string {
  const { chain } = model;
  const { block } = chain.locate(tr.g);
  const ts = chain.timestamp(block);
  let tokenPart: string;
  if (token.ercType === 'ERC-20') {
    let json = erc20TokenJson.get(token);
    if (json === undefined) {
      json = JSON.stringify(tokenObject(model, token, tr.tokenId, ts)[1]);
      erc20TokenJson.set(token, json);
    }
    tokenPart = `"erc20Token":${json}`;
  } else {
    const [key, obj] = tokenObject(model, token, tr.tokenId, ts);
    tokenPart = `${JSON.stringify(key)}:${JSON.stringify(obj)}`;
  }
  return (
    `{"blockNumber":"${block}","blockTimestamp":${ts},"blockHash":"${chain.blockHash(block)}","txHash":"${chain.txHash(tr.g)}",` +
    `"from":{"address":"${tr.from}"},"to":{"address":"${tr.to}"},"logIndex":${tr.logIndex},` +
    (token.ercType !== 'ERC-721' ? `"value":"${tr.value}",` : '') +
    tokenPart +
    '}'
  );
}

/** An entry of `/tokens/:address/transfers` as an object. */
export function transferListJson(model: EvmChainModel, token: TokenContract, tr: TransferRecord): Record<string, unknown> {
  return JSON.parse(transferListText(model, token, tr)) as Record<string, unknown>;
}

/** A transfer inside a transaction detail: from, to, logIndex, value (not ERC-721), token object. */
export function transferDetailJson(model: EvmChainModel, token: TokenContract, tr: TransferRecord): Record<string, unknown> {
  const ts = model.chain.timestamp(model.chain.locate(tr.g).block);
  const [key, obj] = tokenObject(model, token, tr.tokenId, ts);
  const out: Record<string, unknown> = { from: { address: tr.from }, to: { address: tr.to }, logIndex: tr.logIndex };
  if (token.ercType !== 'ERC-721') out.value = String(tr.value);
  out[key] = obj;
  return out;
}
