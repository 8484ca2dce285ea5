import { endpoints } from '../api/endpoints/index.ts';
import type { Erc1155TokenBalance, Erc1155BalancesPage } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col, nftMetadata, nftMetadataRow, uint256, uint256Row } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { perAddressPartitions } from './tables/ercBalancePartitions.ts';
import { evmNativeBalancesTable, nativeBalanceRow } from './tables/evmNativeBalances.ts';
import { str } from './values.ts';

export const evmErc1155BalancesTable: TableDef = {
  name: 'evm_erc1155_balances',
  comment: 'ERC-1155 balances (Erc1155TokenBalance) of each configured address per snapshot; metadata flattened to metadata_*.',
  columns: [
    col('chain_id', 'VARCHAR', 'the partition chain'),
    col('address', 'VARCHAR', 'owner (configured address)'),
    col('token_address', 'VARCHAR'),
    col('token_id', 'VARCHAR', 'uint256 token id, exact text'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('erc_type', 'VARCHAR'),
    col('token_uri', 'VARCHAR'),
    col('token_chain_id', 'VARCHAR'),
    ...uint256('balance', 'token units'),
    ...nftMetadata('metadata'),
  ],
  primaryKey: ['chain_id', 'address', 'token_address', 'token_id', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
};

export const evmErc1155Balances: StreamDef<Erc1155TokenBalance> = {
  name: 'evm.erc1155_balances',
  endpoint: 'GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155',
  mode: 'snapshot-replace',
  walks: endpoints.evm.listErc1155Balances,
  tables: [evmErc1155BalancesTable, evmNativeBalancesTable],
  partitions: (config) => perAddressPartitions('evm.erc1155_balances', config),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listErc1155Balances, { chainId: String(p.params.chainId), address: String(p.params.address), pageSize: s.pageSize, pageToken: s.pageToken ?? undefined });
    return { items: r.erc1155TokenBalances, nextPageToken: r.nextPageToken ?? undefined, response: r };
  },
  normalize: (page, ctx) => {
    const chainId = String(ctx.partition.params.chainId);
    const address = String(ctx.partition.params.address);
    const native = (page.response as Erc1155BalancesPage | undefined)?.nativeTokenBalance;
    return {
      evm_erc1155_balances: page.items.map((b) => ({
        chain_id: chainId,
        address,
        token_address: b.address,
        token_id: b.tokenId,
        snapshot_at: BigInt(ctx.snapshotAt),
        erc_type: str(b.ercType),
        token_uri: str(b.tokenUri),
        token_chain_id: str(b.chainId),
        ...uint256Row('balance', b.balance),
        ...nftMetadataRow('metadata', b.metadata),
      })),
      evm_native_balances: native ? [nativeBalanceRow(chainId, address, ctx.snapshotAt, native)] : [],
    };
  },
};
