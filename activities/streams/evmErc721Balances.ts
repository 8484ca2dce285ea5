import { endpoints } from '../api/endpoints/index.ts';
import type { Erc721TokenBalance, Erc721BalancesPage } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col, nftMetadata, nftMetadataRow } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { perAddressPartitions } from './tables/ercBalancePartitions.ts';
import { evmNativeBalancesTable, nativeBalanceRow } from './tables/evmNativeBalances.ts';
import { str } from './values.ts';

export const evmErc721BalancesTable: TableDef = {
  name: 'evm_erc721_balances',
  comment: 'ERC-721 tokens held (Erc721TokenBalance) by each configured address per snapshot; metadata flattened to metadata_*.',
  columns: [
    col('chain_id', 'VARCHAR', 'the partition chain'),
    col('address', 'VARCHAR', 'owner (configured address)'),
    col('token_address', 'VARCHAR'),
    col('token_id', 'VARCHAR', 'uint256 token id, exact text'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('name', 'VARCHAR'),
    col('symbol', 'VARCHAR'),
    col('erc_type', 'VARCHAR'),
    col('token_uri', 'VARCHAR'),
    col('owner_address', 'VARCHAR'),
    col('token_chain_id', 'VARCHAR'),
    ...nftMetadata('metadata'),
  ],
  primaryKey: ['chain_id', 'address', 'token_address', 'token_id', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
};

export const evmErc721Balances: StreamDef<Erc721TokenBalance> = {
  name: 'evm.erc721_balances',
  endpoint: 'GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721',
  mode: 'snapshot-replace',
  walks: endpoints.evm.listErc721Balances,
  tables: [evmErc721BalancesTable, evmNativeBalancesTable],
  partitions: (config) => perAddressPartitions('evm.erc721_balances', config),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listErc721Balances, { chainId: String(p.params.chainId), address: String(p.params.address), pageSize: s.pageSize, pageToken: s.pageToken ?? undefined });
    return { items: r.erc721TokenBalances, nextPageToken: r.nextPageToken ?? undefined, response: r };
  },
  normalize: (page, ctx) => {
    const chainId = String(ctx.partition.params.chainId);
    const address = String(ctx.partition.params.address);
    const native = (page.response as Erc721BalancesPage | undefined)?.nativeTokenBalance;
    return {
      evm_erc721_balances: page.items.map((b) => ({
        chain_id: chainId,
        address,
        token_address: b.address,
        token_id: b.tokenId,
        snapshot_at: BigInt(ctx.snapshotAt),
        name: str(b.name),
        symbol: str(b.symbol),
        erc_type: str(b.ercType),
        token_uri: str(b.tokenUri),
        owner_address: str(b.ownerAddress),
        token_chain_id: str(b.chainId),
        ...nftMetadataRow('metadata', b.metadata),
      })),
      evm_native_balances: native ? [nativeBalanceRow(chainId, address, ctx.snapshotAt, native)] : [],
    };
  },
};
