import { endpoints } from '../api/endpoints/index.ts';
import type { Erc721TokenBalance } from '../api/schemas/index.ts';
import { defineTable, nftMetadata, varchar } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { ERC_BALANCE_SCOPE, heldNftKey, heldNftPrimaryKey, ownerRequest, perAddressPartitions } from './shared/ercBalancePartitions.ts';
import { nativeBalanceBeside } from './shared/evmNativeBalances.ts';

export const evmErc721BalancesTable = defineTable<Erc721TokenBalance>({
  name: 'evm_erc721_balances',
  comment: 'ERC-721 tokens held (Erc721TokenBalance) by each configured address per snapshot; metadata flattened to metadata_*.',
  columns: [
    heldNftKey(),
    varchar('name', (b) => b.name),
    varchar('symbol', (b) => b.symbol),
    varchar('erc_type', (b) => b.ercType),
    varchar('token_uri', (b) => b.tokenUri),
    varchar('owner_address', (b) => b.ownerAddress),
    varchar('token_chain_id', (b) => b.chainId),
    nftMetadata('metadata', (b) => b.metadata),
  ],
  primaryKey: heldNftPrimaryKey,
  merge: 'versions',
  versions: { scope: ERC_BALANCE_SCOPE },
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
});

export const evmErc721Balances = defineStream({
  name: 'evm.erc721_balances',
  mode: 'snapshot-replace',
  ...listWalk(endpoints.evm.listErc721Balances, ownerRequest),
  sources: [rowsOf(evmErc721BalancesTable), nativeBalanceBeside()],
  partitions: (config) => perAddressPartitions('evm.erc721_balances', config),
});
