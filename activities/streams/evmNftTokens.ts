import { endpoints } from '../api/endpoints/index.ts';
import type { NftTokenResponse } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col, nftMetadata, nftMetadataRow } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { str } from './values.ts';

export const evmNftTokensTable: TableDef = {
  name: 'evm_nft_tokens',
  comment: 'NFT token details (Erc721Token shape) of each configured (contract, tokenId); metadata flattened to metadata_*; last_seen_at = snapshot of the run that read it.',
  columns: [
    col('chain_id', 'VARCHAR'),
    col('address', 'VARCHAR', 'contract address'),
    col('token_id', 'VARCHAR', 'uint256 token id, exact text'),
    col('name', 'VARCHAR'),
    col('symbol', 'VARCHAR'),
    col('erc_type', 'VARCHAR'),
    col('token_uri', 'VARCHAR'),
    col('owner_address', 'VARCHAR'),
    ...nftMetadata('metadata'),
    col('last_seen_at', 'BIGINT', 'epoch seconds of the run snapshot'),
  ],
  primaryKey: ['chain_id', 'address', 'token_id'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'] },
};

type Item = { contract: string; tokenId: string; token: NftTokenResponse };

/** One get per configured NFT; params.nfts holds "contract:tokenId", the page token the next index. */
export const evmNftTokens: StreamDef<Item> = {
  name: 'evm.nft_tokens',
  endpoint: 'GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}',
  mode: 'snapshot-merge',
  walks: endpoints.evm.getNftToken,
  tables: [evmNftTokensTable],
  partitions: (config) =>
    config.evmChains
      .filter((c) => c.nfts.length > 0)
      .map((c) => ({
        stream: 'evm.nft_tokens' as const,
        id: partitionId('evm.nft_tokens', c.chainId),
        chain: c.chainId,
        params: { chainId: c.chainId, nfts: c.nfts.map((n) => `${n.contract}:${n.tokenId}`) },
      })),
  async fetchPage(client, p, s) {
    const nfts = p.params.nfts as string[];
    const index = Number(s.pageToken ?? 0);
    const [contract, tokenId] = nfts[index].split(':');
    const token = await client.call(endpoints.evm.getNftToken, { chainId: String(p.params.chainId), address: contract, tokenId });
    return { items: [{ contract, tokenId, token }], nextPageToken: index + 1 < nfts.length ? String(index + 1) : undefined };
  },
  normalize: (page, ctx) => ({
    evm_nft_tokens: page.items.map(({ contract, tokenId, token: t }) => ({
      chain_id: String(ctx.partition.params.chainId),
      address: contract,
      token_id: tokenId,
      name: str(t.name),
      symbol: str(t.symbol),
      erc_type: str(t.ercType),
      token_uri: str(t.tokenUri),
      owner_address: str(t.ownerAddress),
      ...nftMetadataRow('metadata', t.metadata),
      last_seen_at: BigInt(ctx.snapshotAt),
    })),
  }),
};
