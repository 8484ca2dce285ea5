import { hash32 } from '../world/hash.ts';
import { K } from './chain.ts';
import type { TokenContract } from './tokens.ts';

/** NFT indexStatus values of the facts; most tokens are indexed (both spellings are seen). */
const STATUSES = [
  'UNKNOWN', 'MISSING_TOKEN', 'INVALID_TOKEN_URI', 'INVALID_TOKEN_URI_SCHEME', 'UNREACHABLE_TOKEN_URI', 'THROTTLED_TOKEN_URI',
  'METADATA_CONTENT_TOO_LARGE', 'INVALID_METADATA', 'INVALID_METADATA_JSON', 'UNINDEXED',
];

export function indexStatus(domain: number, t: number, tokenId: string): string {
  const h = hash32(domain, K.nft, t, Number(tokenId));
  const r = h % 100;
  if (r < 60) return 'INDEXED';
  if (r < 75) return 'indexed';
  return STATUSES[h % STATUSES.length];
}

export function tokenUri(token: TokenContract, tokenId: string): string {
  return `ipfs://sim/${token.address.slice(2, 10)}/${tokenId}.json`;
}

export function nftMetadata(domain: number, token: TokenContract, tokenId: string, updatedAt: number): Record<string, unknown> {
  const status = indexStatus(domain, token.t, tokenId);
  const base: Record<string, unknown> = { indexStatus: status, metadataLastUpdatedTimestamp: updatedAt };
  if (status !== 'INDEXED' && status !== 'indexed') return base;
  const common = {
    ...base,
    name: `${token.name} #${tokenId}`,
    symbol: token.symbol,
    imageUri: `https://images.sim.local/nft/${token.symbol.toLowerCase()}/${tokenId}.png`,
    description: `Item ${tokenId} of ${token.name}.`,
    animationUri: '',
    externalUrl: `https://nft.sim.local/${token.address}/${tokenId}`,
    background: '#' + (hash32(domain, K.nft, token.t, Number(tokenId), 1) & 0xffffff).toString(16).padStart(6, '0'),
  };
  if (token.ercType === 'ERC-721') {
    return { ...common, attributes: JSON.stringify([{ trait_type: 'tier', value: 1 + (hash32(domain, K.nft, Number(tokenId), 2) % 5) }]) };
  }
  return { ...common, decimals: 0, properties: JSON.stringify({ edition: Number(tokenId) }) };
}
