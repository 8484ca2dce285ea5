import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../../common/activityTypes.ts';
import type { Network } from '../../api/endpoints/index.ts';
import { varchar, type Column } from '../columns.ts';
import { chunks, partitionId, setTag } from '../partitionIds.ts';
import type { Discovered } from '../streamDef.ts';

/** Node ids per request (the list is comma-separated in the query string). */
const NODE_IDS_PER_PARTITION = 16;
const ADDRESSES_PER_PARTITION = 64;

/**
 * Reward lists take addresses or node ids. Config-driven partitions come from the configured ones;
 * with `discovered`, partitions for node ids found by pn.validators (networks that ask for it),
 * minus the configured ones, so each node id is walked once.
 */
export function rewardPartitions(stream: StreamName, config: ResolvedConfig, discovered?: Discovered): PartitionSpec[] {
  return config.networks.flatMap((n) => {
    const make = (kind: 'addresses' | 'nodeIds', set: string[]): PartitionSpec => ({
      stream,
      id: partitionId(stream, n.network, setTag(kind === 'addresses' ? 'addrs' : 'nodes', set)),
      network: n.network,
      params: { network: n.network, [kind]: set },
    });
    if (discovered?.validatorNodeIds) {
      if (!n.rewardsForDiscoveredValidators) return [];
      const configured = new Set(n.nodeIds);
      const found = (discovered.validatorNodeIds?.get(n.network) ?? []).filter((id) => !configured.has(id));
      return chunks(found, NODE_IDS_PER_PARTITION).map((set) => make('nodeIds', set));
    }
    return [...chunks(n.addresses, ADDRESSES_PER_PARTITION).map((set) => make('addresses', set)), ...chunks(n.nodeIds, NODE_IDS_PER_PARTITION).map((set) => make('nodeIds', set))];
  });
}

/** The request of a reward partition: its network and its address or node-id set. */
export const rewardRequest = (p: PartitionSpec) => ({ network: p.params.network as Network, addresses: p.params.addresses as string[] | undefined, nodeIds: p.params.nodeIds as string[] | undefined });

/** The network of a partition: the first column of every per-network table. */
export const networkColumn = <S>(): Column<S> => varchar('network', (_s, x) => String(x.partition.params.network));
