import { describe, expect, it } from 'vitest';
import { placementGroup, shardTaskQueue } from '../../common/shards.ts';
import { holdersOf, mergeValidatorNodeIds, spreadGroups } from '../../workflows/shardAssignment.ts';

describe('shard assignment rules', () => {
  it('puts every partition of an EVM chain, and of a primary network, in one placement group', () => {
    expect(placementGroup('evm.blocks/43114', 'evm.blocks')).toBe('evm/43114');
    expect(placementGroup('evm.address_transactions/43114/0xabc/0-1000', 'evm.address_transactions')).toBe('evm/43114');
    expect(placementGroup('metrics.holders/43114/0xabc', 'metrics.holders')).toBe('evm/43114');
    expect(placementGroup('pn.transactions/mainnet/p-chain', 'pn.transactions')).toBe('pn/mainnet');
    expect(placementGroup('pn.rewards/mainnet/nodes-2-3bdf8a4b7d9a', 'pn.rewards')).toBe('pn/mainnet');
    expect(placementGroup('pn.utxos/fuji/x-chain/addrs-3-aa', 'pn.utxos')).not.toBe(placementGroup('pn.utxos/mainnet/x-chain/addrs-3-aa', 'pn.utxos'));
    expect(shardTaskQueue('glacier-etl', 'a')).toBe('glacier-etl.shard.a');
  });

  it('spreads new groups largest first onto the least loaded shard, counting what each already runs', () => {
    const load = new Map([['a', 10], ['b', 0], ['c', 0]]);
    const chosen = spreadGroups([{ group: 'evm/1', partitions: 3 }, { group: 'pn/mainnet', partitions: 8 }, { group: 'evm/2', partitions: 3 }, { group: 'evm/3', partitions: 1 }], ['a', 'b', 'c'], load);
    expect(Object.fromEntries(chosen)).toEqual({ 'pn/mainnet': 'b', 'evm/1': 'c', 'evm/2': 'c', 'evm/3': 'c' });
    expect(Object.fromEntries(load)).toEqual({ a: 10, b: 8, c: 7 });
  });

  it('finds every shard that holds a group (two is a conflict)', () => {
    const answers = [{ shard: 'a', groups: ['evm/1'], partitions: [] }, { shard: 'b', groups: ['evm/1', 'pn/mainnet'], partitions: [] }];
    expect(holdersOf('pn/mainnet', answers)).toEqual(['b']);
    expect(holdersOf('evm/1', answers)).toEqual(['a', 'b']);
    expect(holdersOf('evm/2', answers)).toEqual([]);
  });

  it('merges the shards\' validators into the sorted list one warehouse would read', () => {
    expect(mergeValidatorNodeIds([{ mainnet: ['NodeID-C', 'NodeID-A'] }, { mainnet: ['NodeID-B', 'NodeID-A'], fuji: ['NodeID-Z'] }, {}])).toEqual({ fuji: ['NodeID-Z'], mainnet: ['NodeID-A', 'NodeID-B', 'NodeID-C'] });
  });
});
