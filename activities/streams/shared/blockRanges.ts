import type { ResolvedConfig } from '../../../common/config.ts';
import type { StreamName } from '../../../common/streamNames.ts';
import type { PartitionSpec } from '../../../common/activityTypes.ts';
import { partitionId } from '../partitionIds.ts';
import type { Discovered, FetchState } from '../streamDef.ts';

/**
 * Range partitions of a block-range stream (like cryo's chunks): one per `rangeSize`-aligned block
 * range from `fromBlock` to the chain head, walked in parallel. Ranges below the head's range are
 * closed (endBlock exclusive); the head's range is open-ended and keeps following the chain. A range
 * is named by its start only, so when the head moves on, the same partition (and checkpoint) just
 * gains an end: its next sync walks from its committed end to that end, no more.
 */
export function blockRangePartitions(stream: StreamName, config: ResolvedConfig, key: 'addresses' | 'contracts', plan?: Discovered): PartitionSpec[] {
  return config.evmChains.flatMap((c) => {
    const from = c.fromBlock ?? 0;
    const head = plan?.chainHeads?.get(c.chainId);
    const first = Math.floor(from / c.rangeSize);
    const last = head === undefined ? first : Math.max(first, Math.floor(head / c.rangeSize));
    return c[key].flatMap((address) =>
      Array.from({ length: last - first + 1 }, (_, i) => {
        const k = first + i;
        const startBlock = Math.max(from, k * c.rangeSize);
        const params: PartitionSpec['params'] = { chainId: c.chainId, address, startBlock };
        if (k < last) params.endBlock = (k + 1) * c.rangeSize;
        return { stream, id: partitionId(stream, c.chainId, address, `from-${startBlock}`), chain: c.chainId, params };
      }),
    );
  });
}

/** The request of one page of a block-range partition: its chain and address, from the walk's lower bound to the range end. */
export function blockRangeRequest(p: PartitionSpec, s: FetchState): { chainId: string; address: string; startBlock: number; endBlock?: number } {
  return {
    chainId: String(p.params.chainId),
    address: String(p.params.address),
    startBlock: s.from ?? Number(p.params.startBlock ?? 0),
    endBlock: p.params.endBlock === undefined ? undefined : Number(p.params.endBlock),
  };
}

/** One partition per EVM chain whose configured list (addresses, NFTs, tx hashes) is not empty; the list goes in `params[param]`. */
export function chainListPartitions(stream: StreamName, config: ResolvedConfig, param: string, list: (chain: ResolvedConfig['evmChains'][number]) => string[]): PartitionSpec[] {
  return config.evmChains
    .filter((c) => list(c).length > 0)
    .map((c) => ({ stream, id: partitionId(stream, c.chainId), chain: c.chainId, params: { chainId: c.chainId, [param]: list(c) } }));
}
