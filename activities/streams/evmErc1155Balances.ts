import { endpoints } from '../api/endpoints/index.ts';
import type { Erc1155TokenBalance } from '../api/schemas/index.ts';
import { defineTable, nftMetadata, uint256, varchar } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { ERC_BALANCE_SCOPE, heldNftKey, heldNftPrimaryKey, ownerRequest, perAddressPartitions } from './shared/ercBalancePartitions.ts';
import { nativeBalanceBeside } from './shared/evmNativeBalances.ts';

export const evmErc1155BalancesTable = defineTable<Erc1155TokenBalance>({
  name: 'evm_erc1155_balances',
  comment: 'ERC-1155 balances (Erc1155TokenBalance) of each configured address per snapshot; metadata flattened to metadata_*.',
  columns: [
    heldNftKey(),
    varchar('erc_type', (b) => b.ercType),
    varchar('token_uri', (b) => b.tokenUri),
    varchar('token_chain_id', (b) => b.chainId),
    uint256('balance', (b) => b.balance, 'token units'),
    nftMetadata('metadata', (b) => b.metadata),
  ],
  primaryKey: heldNftPrimaryKey,
  merge: 'versions',
  versions: { scope: ERC_BALANCE_SCOPE },
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
});

export const evmErc1155Balances = defineStream({
  name: 'evm.erc1155_balances',
  mode: 'snapshot-replace',
  ...listWalk(endpoints.evm.listErc1155Balances, ownerRequest),
  sources: [rowsOf(evmErc1155BalancesTable), nativeBalanceBeside()],
  partitions: (config) => perAddressPartitions('evm.erc1155_balances', config),
});
