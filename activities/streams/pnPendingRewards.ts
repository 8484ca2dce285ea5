import { endpoints } from '../api/endpoints/index.ts';
import type { PendingReward } from '../api/schemas/index.ts';
import { assetAmount, bigint, defineTable, double, hugeint, snapshotAt, varchar, varcharList } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { networkColumn, rewardPartitions, rewardRequest } from './shared/rewardPartitions.ts';

export const pnPendingRewardsTable = defineTable<PendingReward>({
  name: 'pn_pending_rewards',
  comment: 'Pending staking rewards (PendingReward) per snapshot; estimatedReward flattened to estimated_reward_*.',
  columns: [
    networkColumn(),
    varchar('tx_hash', (r) => r.txHash, 'staking tx'),
    varchar('reward_type', (r) => r.rewardType ?? '', 'empty string when absent (part of the key)'),
    snapshotAt('snapshot_at'),
    varcharList('addresses', (r) => r.addresses),
    hugeint('amount_staked', (r) => r.amountStaked, 'nAVAX'),
    varchar('node_id', (r) => r.nodeId),
    bigint('start_timestamp', (r) => r.startTimestamp),
    bigint('end_timestamp', (r) => r.endTimestamp),
    double('progress', (r) => r.progress),
    assetAmount('estimated_reward_', (r) => r.estimatedReward),
  ],
  primaryKey: ['network', 'tx_hash', 'reward_type', 'snapshot_at'],
  merge: 'versions',
  // The rewards a walk's filter lists (as v_pn_pending_rewards_latest reads them): one of the reward's
  // addresses (P-/X- prefix aside) is in its set, or its node id is; a walk with neither covers the network.
  versions: {
    scope:
      "t.network = (p->>'network') AND (((p->'addresses') IS NULL AND (p->'nodeIds') IS NULL) OR coalesce(list_has_any(list_transform(t.addresses, a -> regexp_replace(a, '^[PXC]-', '')), list_transform(CAST(p->'addresses' AS VARCHAR[]), a -> regexp_replace(a, '^[PXC]-', ''))), false) OR coalesce(list_contains(CAST(p->'nodeIds' AS VARCHAR[]), t.node_id), false))",
  },
  export: { partitionBy: ['network'], dateFrom: 'snapshot_at' },
});

export const pnPendingRewards = defineStream({
  name: 'pn.pending_rewards',
  mode: 'snapshot-replace',
  ...listWalk(endpoints.primaryNetwork.listPendingRewards, rewardRequest),
  sources: [rowsOf(pnPendingRewardsTable)],
  takesDiscovered: true,
  partitions: (config, discovered) => rewardPartitions('pn.pending_rewards', config, discovered),
});
