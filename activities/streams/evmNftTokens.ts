import { endpoints } from '../api/endpoints/index.ts';
import type { NftTokenResponse } from '../api/schemas/index.ts';
import { defineTable, nftMetadata, snapshotAt, varchar } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, rowsOf } from './streamDef.ts';
import { chainColumn } from './tables/evmTransactions.ts';

type Item = { contract: string; tokenId: string; token: NftTokenResponse };

export const evmNftTokensTable = defineTable<Item>({
  name: 'evm_nft_tokens',
  comment: 'NFT token details (Erc721Token shape) of each configured (contract, tokenId); metadata flattened to metadata_*; last_seen_at = snapshot of the run that read it.',
  columns: [
    chainColumn(),
    varchar('address', (i) => i.contract, 'contract address'),
    varchar('token_id', (i) => i.tokenId, 'uint256 token id, exact text'),
    varchar('name', (i) => i.token.name),
    varchar('symbol', (i) => i.token.symbol),
    varchar('erc_type', (i) => i.token.ercType),
    varchar('token_uri', (i) => i.token.tokenUri),
    varchar('owner_address', (i) => i.token.ownerAddress),
    nftMetadata('metadata', (i) => i.token.metadata),
    snapshotAt('last_seen_at'),
  ],
  primaryKey: ['chain_id', 'address', 'token_id'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'] },
});

/** One get per configured NFT; params.nfts holds "contract:tokenId", the page token the next index. */
export const evmNftTokens = defineStream({
  name: 'evm.nft_tokens',
  mode: 'snapshot-merge',
  walks: endpoints.evm.getNftToken,
  async fetchPage(client, p, s) {
    const nfts = p.params.nfts as string[];
    const index = Number(s.pageToken ?? 0);
    const [contract, tokenId] = nfts[index].split(':');
    const token = await client.call(endpoints.evm.getNftToken, { chainId: String(p.params.chainId), address: contract, tokenId });
    return { items: [{ contract, tokenId, token }], nextPageToken: index + 1 < nfts.length ? String(index + 1) : undefined };
  },
  sources: [rowsOf(evmNftTokensTable)],
  partitions: (config) =>
    config.evmChains
      .filter((c) => c.nfts.length > 0)
      .map((c) => ({
        stream: 'evm.nft_tokens' as const,
        id: partitionId('evm.nft_tokens', c.chainId),
        chain: c.chainId,
        params: { chainId: c.chainId, nfts: c.nfts.map((n) => `${n.contract}:${n.tokenId}`) },
      })),
});
