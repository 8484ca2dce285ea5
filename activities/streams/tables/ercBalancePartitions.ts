import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../sync/types.ts';
import { varchar, type Column } from '../columns.ts';
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
