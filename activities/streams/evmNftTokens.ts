import { endpoints } from '../api/endpoints/index.ts';
import { z } from 'zod';
import { NftTokenResponse } from '../api/schemas/index.ts';
import { defineTable, nftMetadata, snapshotAt, varchar } from './columns.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { defineStream, getEach, rowsOf, type StreamClient } from './streamDef.ts';
import { chainListPartitions } from './shared/blockRanges.ts';
import { chainColumn } from './shared/evmTransactions.ts';

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
  touch: ['last_seen_at'],
  export: { partitionBy: ['chain_id'] },
});

/** One configured NFT ("contract:tokenId"). */
async function tokenOf(client: StreamClient, p: PartitionSpec, nft: string): Promise<Item> {
  const [contract, tokenId] = nft.split(':');
  return { contract, tokenId, token: await client.call(endpoints.evm.getNftToken, { chainId: String(p.params.chainId), address: contract, tokenId }) };
}

/** One get per configured NFT; params.nfts holds "contract:tokenId", the page token the next index. */
export const evmNftTokens = defineStream({
  name: 'evm.nft_tokens',
  mode: 'snapshot-merge',
  ...getEach(endpoints.evm.getNftToken, 'nfts', tokenOf),
  items: z.looseObject({ contract: z.string(), tokenId: z.string(), token: NftTokenResponse }),
  sources: [rowsOf(evmNftTokensTable)],
  partitions: (config) => chainListPartitions('evm.nft_tokens', config, 'nfts', (c) => c.nfts.map((n) => `${n.contract}:${n.tokenId}`)),
});
