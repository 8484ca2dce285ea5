import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../../common/activityTypes.ts';
import { snapshotAt, varchar, type Column } from '../columns.ts';
import { partitionId } from '../partitionIds.ts';
import { chainColumn } from './evmTransactions.ts';

/** ERC balance lists are per (chain, owner address). */
export function perAddressPartitions(stream: StreamName, config: ResolvedConfig): PartitionSpec[] {
  return config.evmChains.flatMap((c) =>
    c.addresses.map((address) => ({ stream, id: partitionId(stream, c.chainId, address), chain: c.chainId, params: { chainId: c.chainId, address } })),
  );
}

/** The request of an owner partition: its chain and owner address. */
export const ownerRequest = (p: PartitionSpec) => ({ chainId: String(p.params.chainId), address: String(p.params.address) });

/** chain_id and address (the partition's owner): the first columns of every ERC balance table. */
export const ownerKey = <S>(): Column<S>[] => [chainColumn('the partition chain'), varchar('address', (_s, x) => String(x.partition.params.address), 'owner (configured address)')];

/** The key of an NFT held by the partition's owner in a snapshot (ERC-721 and ERC-1155 balance tables). */
export const heldNftKey = <S extends { address: string; tokenId: string }>(): Column<S>[] => [
  ...ownerKey<S>(),
  varchar('token_address', (b) => b.address),
  varchar('token_id', (b) => b.tokenId, 'uint256 token id, exact text'),
  snapshotAt('snapshot_at'),
];
export const heldNftPrimaryKey = ['chain_id', 'address', 'token_address', 'token_id', 'snapshot_at'];

/** The rows an owner partition's walk answers for (versioned ERC balance tables): its chain and owner. */
export const ERC_BALANCE_SCOPE = "t.chain_id = (p->>'chainId') AND t.address = (p->>'address')";
