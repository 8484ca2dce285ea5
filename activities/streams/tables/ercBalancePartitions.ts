import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../sync/types.ts';
import { partitionId } from '../partitionIds.ts';

/** ERC balance lists are per (chain, owner address). */
export function perAddressPartitions(stream: StreamName, config: ResolvedConfig): PartitionSpec[] {
  return config.evmChains.flatMap((c) =>
    c.addresses.map((address) => ({ stream, id: partitionId(stream, c.chainId, address), chain: c.chainId, params: { chainId: c.chainId, address } })),
  );
}
