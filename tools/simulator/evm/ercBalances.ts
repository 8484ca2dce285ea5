import type { EvmChainModel } from './chainModel.ts';
import type { TokenLedger } from './tokens.ts';

/** Transfers of a ledger included in the state at the end of `block`. */
export function transfersThrough(model: EvmChainModel, ledger: TokenLedger, block: number): number {
  return ledger.transfersBefore(model.chain.txsBefore(block + 1));
}

/** Balance of `address` in one ERC-20 ledger at the end of `block` (sum of transfers in minus out). */
export function erc20Balance(model: EvmChainModel, ledger: TokenLedger, address: string, block: number): bigint {
  const owners = ledger.owners(transfersThrough(model, ledger, block));
  let sum = 0n;
  owners.forEach((o, coin) => {
    if (o === address) sum += ledger.coinValue(coin);
  });
  return sum;
}

/** ERC-721 token ids owned by `address` at the end of `block`, ascending. */
export function erc721Owned(model: EvmChainModel, ledger: TokenLedger, address: string, block: number): string[] {
  const owners = ledger.owners(transfersThrough(model, ledger, block));
  const ids: string[] = [];
  owners.forEach((o, coin) => {
    if (o === address) ids.push(ledger.tokenIdOf(coin)!);
  });
  return ids;
}

/** ERC-1155 balances per token id of `address` at the end of `block`, ascending by id. */
export function erc1155Owned(model: EvmChainModel, ledger: TokenLedger, address: string, block: number): { tokenId: string; balance: bigint }[] {
  const owners = ledger.owners(transfersThrough(model, ledger, block));
  const byId = new Map<string, bigint>();
  owners.forEach((o, coin) => {
    if (o !== address) return;
    const id = ledger.tokenIdOf(coin)!;
    byId.set(id, (byId.get(id) ?? 0n) + ledger.coinValue(coin));
  });
  return [...byId.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([tokenId, balance]) => ({ tokenId, balance }));
}

/**
 * metadataLastUpdatedTimestamp of NFT id `tokenId` as of the end of `block`: the timestamp of the
 * block of the last transfer that moved one of its units (its mint is the first). The service's
 * indexer reads a token's metadata when the token moves (or on a reindex request, which nobody sends
 * here), not on every query, so a held token's metadata is stable from night to night; a transfer
 * carries the metadata as of its own block, which is the same rule.
 */
export function nftMetadataUpdatedAt(model: EvmChainModel, ledger: TokenLedger, tokenId: string, block: number): number {
  const last = ledger.lastMoveOf(tokenId, transfersThrough(model, ledger, block));
  if (last < 0) throw new Error(`simulator: NFT ${ledger.token.address} #${tokenId} has no unit minted by block ${block}`);
  return model.chain.timestamp(model.chain.blockOf(ledger.transfer(last).g));
}
