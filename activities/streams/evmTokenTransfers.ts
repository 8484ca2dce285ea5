import { endpoints } from '../api/endpoints/index.ts';
import type { ErcTransfer } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { added, col, erc20Token, erc20TokenRow, evmAddressInfo, evmAddressInfoRow, nftMetadata, nftMetadataRow, uint256, uint256Row } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { blockRangePartitions } from './tables/blockRanges.ts';
import { int, i64, str, u64 } from './values.ts';

export const evmTokenTransfersTable: TableDef = {
  name: 'evm_token_transfers',
  comment:
    'Token transfers of each configured contract (Erc transfer). erc20Token flattened to erc20_token_*; ERC-721/1155 contracts send erc721Token/erc1155Token, flattened to nft_token_* and nft_metadata_*; token_standard says which object was present.',
  columns: [
    col('chain_id', 'VARCHAR'),
    col('contract_address', 'VARCHAR', 'the configured contract (partition)'),
    col('tx_hash', 'VARCHAR'),
    col('log_index', 'INTEGER'),
    col('block_number', 'UBIGINT'),
    col('block_timestamp', 'BIGINT', 'epoch seconds'),
    col('block_hash', 'VARCHAR'),
    ...evmAddressInfo('from'),
    ...evmAddressInfo('to'),
    ...uint256('value', 'token smallest unit'),
    col('token_standard', 'VARCHAR', 'ERC-20, ERC-721 or ERC-1155: which token object the item carried'),
    ...erc20Token('erc20_token'),
    col('nft_token_address', 'VARCHAR'),
    col('nft_token_id', 'VARCHAR', 'uint256 token id, exact text'),
    col('nft_token_uri', 'VARCHAR'),
    col('nft_token_name', 'VARCHAR'),
    col('nft_token_symbol', 'VARCHAR'),
    col('nft_token_erc_type', 'VARCHAR'),
    col('nft_owner_address', 'VARCHAR'),
    ...nftMetadata('nft_metadata'),
    // An ERC-1155 TransferBatch is one log with one entry per token id: the id is part of the key.
    added(col('token_id', 'VARCHAR', "key part: the entry's token id (ERC-721/1155), '' for ERC-20 (one entry per log)"), "coalesce(nft_token_id, '')"),
  ],
  primaryKey: ['chain_id', 'contract_address', 'tx_hash', 'log_index', 'token_id'],
  merge: 'upsert',
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
};

export const evmTokenTransfers: StreamDef<ErcTransfer> = {
  name: 'evm.token_transfers',
  endpoint: 'GET /v1/chains/{chainId}/tokens/{address}/transfers',
  mode: 'range',
  walks: endpoints.evm.listTransfers,
  tables: [evmTokenTransfersTable],
  needsChainHeads: true,
  partitions: (config, plan) => blockRangePartitions('evm.token_transfers', config, 'contracts', plan),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listTransfers, {
      chainId: String(p.params.chainId),
      address: String(p.params.address),
      startBlock: s.from ?? Number(p.params.startBlock ?? 0),
      endBlock: p.params.endBlock === undefined ? undefined : Number(p.params.endBlock),
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.transfers, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    evm_token_transfers: page.items.map((t) => {
      const nft = t.erc721Token ?? t.erc1155Token;
      return {
        chain_id: String(ctx.partition.params.chainId),
        contract_address: String(ctx.partition.params.address),
        tx_hash: t.txHash,
        log_index: int(t.logIndex),
        block_number: u64(t.blockNumber),
        block_timestamp: i64(t.blockTimestamp),
        block_hash: str(t.blockHash),
        ...evmAddressInfoRow('from', t.from),
        ...evmAddressInfoRow('to', t.to),
        ...uint256Row('value', t.value),
        token_standard: t.erc20Token ? 'ERC-20' : t.erc721Token ? 'ERC-721' : t.erc1155Token ? 'ERC-1155' : null,
        ...erc20TokenRow('erc20_token', t.erc20Token),
        nft_token_address: str(nft?.address),
        nft_token_id: str(nft?.tokenId),
        nft_token_uri: str(nft?.tokenUri),
        nft_token_name: str(t.erc721Token?.name),
        nft_token_symbol: str(t.erc721Token?.symbol),
        nft_token_erc_type: str(nft?.ercType),
        nft_owner_address: str(t.erc721Token?.ownerAddress),
        ...nftMetadataRow('nft_metadata', nft?.metadata),
        token_id: nft?.tokenId ?? '',
      };
    }),
  }),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
};
