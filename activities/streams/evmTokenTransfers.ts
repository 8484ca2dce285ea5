import { endpoints } from '../api/endpoints/index.ts';
import type { ErcTransfer } from '../api/schemas/index.ts';
import { added, bigint, defineTable, erc20Token, evmAddressInfo, integer, nftMetadata, uint256, ubigint, varchar, within } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { blockRangePartitions, blockRangeRequest } from './shared/blockRanges.ts';
import { chainColumn } from './shared/evmTransactions.ts';

/** The NFT object of a transfer, whichever standard sent it. */
const nftOf = (t: ErcTransfer) => t.erc721Token ?? t.erc1155Token;

export const evmTokenTransfersTable = defineTable<ErcTransfer>({
  name: 'evm_token_transfers',
  comment:
    'Token transfers of each configured contract (Erc transfer). erc20Token flattened to erc20_token_*; ERC-721/1155 contracts send erc721Token/erc1155Token, flattened to nft_token_* and nft_metadata_*; token_standard says which object was present.',
  columns: [
    chainColumn(),
    varchar('contract_address', (_t, x) => String(x.partition.params.address), 'the configured contract (partition)'),
    varchar('tx_hash', (t) => t.txHash),
    integer('log_index', (t) => t.logIndex),
    ubigint('block_number', (t) => t.blockNumber),
    bigint('block_timestamp', (t) => t.blockTimestamp, 'epoch seconds'),
    varchar('block_hash', (t) => t.blockHash),
    evmAddressInfo('from', (t) => t.from),
    evmAddressInfo('to', (t) => t.to),
    uint256('value', (t) => t.value, 'token smallest unit'),
    varchar('token_standard', (t) => (t.erc20Token ? 'ERC-20' : t.erc721Token ? 'ERC-721' : t.erc1155Token ? 'ERC-1155' : null), 'ERC-20, ERC-721 or ERC-1155: which token object the item carried'),
    erc20Token('erc20_token', (t) => t.erc20Token),
    within(nftOf, [
      varchar('nft_token_address', (n) => n?.address),
      varchar('nft_token_id', (n) => n?.tokenId, 'uint256 token id, exact text'),
      varchar('nft_token_uri', (n) => n?.tokenUri),
    ]),
    varchar('nft_token_name', (t) => t.erc721Token?.name),
    varchar('nft_token_symbol', (t) => t.erc721Token?.symbol),
    varchar('nft_token_erc_type', (t) => nftOf(t)?.ercType),
    varchar('nft_owner_address', (t) => t.erc721Token?.ownerAddress),
    nftMetadata('nft_metadata', (t) => nftOf(t)?.metadata),
    // An ERC-1155 TransferBatch is one log with one entry per token id: the id is part of the key.
    added(varchar('token_id', (t) => nftOf(t)?.tokenId ?? '', "key part: the entry's token id (ERC-721/1155), '' for ERC-20 (one entry per log)"), "coalesce(nft_token_id, '')"),
  ],
  primaryKey: ['chain_id', 'contract_address', 'tx_hash', 'log_index', 'token_id'],
  pruneBy: 'block_number',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
});

export const evmTokenTransfers = defineStream({
  name: 'evm.token_transfers',
  mode: 'range',
  ...listWalk(endpoints.evm.listTransfers, blockRangeRequest),
  sources: [rowsOf(evmTokenTransfersTable)],
  needsChainHeads: true,
  partitions: (config, plan) => blockRangePartitions('evm.token_transfers', config, 'contracts', plan),
  orderKey: (t) => (t.blockNumber == null ? null : Number(t.blockNumber)),
  // One entry per log and token id (the table's key), with its block (see evm.address_transactions).
  identity: (t) => `${t.txHash}/${t.logIndex}/${nftOf(t)?.tokenId ?? ''}/${t.blockHash ?? ''}`,
});
