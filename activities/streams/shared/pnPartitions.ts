import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../../common/activityTypes.ts';
import { varchar, type Column } from '../columns.ts';
import { chunks, partitionId, setTag } from '../partitionIds.ts';

/** Addresses per request: well under the GET limits, and one partition's walk stays short. */
export const ADDRESSES_PER_PARTITION = 64;

/** Partitions per (network, chain) over chunks of the network's address set (addresses go in one request). */
export function addressSetPartitions(stream: StreamName, config: ResolvedConfig, chains?: readonly string[]): PartitionSpec[] {
  return config.networks.flatMap((n) =>
    n.addresses.length === 0
      ? []
      : n.chains
          .filter((c) => !chains || chains.includes(c))
          .flatMap((chain) =>
            chunks(n.addresses, ADDRESSES_PER_PARTITION).map((set) => ({
              stream,
              id: partitionId(stream, n.network, chain, setTag('addrs', set)),
              network: n.network,
              chain,
              params: { network: n.network, blockchainId: chain, addresses: set },
            })),
          ),
  );
}

/** The network and chain of a primary-network partition: the first columns of its tables. */
export const chainKey = <S>(comment?: string): Column<S>[] => [
  varchar('network', (_s, x) => String(x.partition.params.network)),
  varchar('blockchain_id', (_s, x) => String(x.partition.params.blockchainId), comment),
];

/** The partition's address set as stored: sorted configured addresses, comma-joined. */
export const addressSet = <S>(): Column<S> => varchar('address_set', (_s, x) => (x.partition.params.addresses as string[]).join(','), 'sorted configured addresses, comma-joined');
