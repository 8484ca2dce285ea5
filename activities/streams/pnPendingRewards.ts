import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { PendingReward } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { assetAmount, assetAmountRow, col } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { rewardPartitions } from './tables/rewardPartitions.ts';
import { dbl, huge, i64, str, strs } from './values.ts';

export const pnPendingRewardsTable: TableDef = {
  name: 'pn_pending_rewards',
  comment: 'Pending staking rewards (PendingReward) per snapshot; estimatedReward flattened to estimated_reward_*.',
  columns: [
    col('network', 'VARCHAR'),
    col('tx_hash', 'VARCHAR', 'staking tx'),
    col('reward_type', 'VARCHAR', 'empty string when absent (part of the key)'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('addresses', 'VARCHAR[]'),
    col('amount_staked', 'HUGEINT', 'nAVAX'),
    col('node_id', 'VARCHAR'),
    col('start_timestamp', 'BIGINT'),
    col('end_timestamp', 'BIGINT'),
    col('progress', 'DOUBLE'),
    ...assetAmount('estimated_reward_'),
  ],
  primaryKey: ['network', 'tx_hash', 'reward_type', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: ['network'], dateFrom: 'snapshot_at' },
};

export const pnPendingRewards: StreamDef<PendingReward> = {
  name: 'pn.pending_rewards',
  endpoint: 'GET /v1/networks/{network}/rewards:listPending',
  mode: 'snapshot-replace',
  walks: endpoints.primaryNetwork.listPendingRewards,
  takesDiscovered: true,
  tables: [pnPendingRewardsTable],
  partitions: (config, discovered) => rewardPartitions('pn.pending_rewards', config, discovered),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.primaryNetwork.listPendingRewards, {
      network: p.params.network as Network,
      addresses: p.params.addresses as string[] | undefined,
      nodeIds: p.params.nodeIds as string[] | undefined,
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.pendingRewards, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    pn_pending_rewards: page.items.map((r) => ({
      network: String(ctx.partition.params.network),
      tx_hash: r.txHash,
      reward_type: r.rewardType ?? '',
      snapshot_at: BigInt(ctx.snapshotAt),
      addresses: strs(r.addresses),
      amount_staked: huge(r.amountStaked),
      node_id: str(r.nodeId),
      start_timestamp: i64(r.startTimestamp),
      end_timestamp: i64(r.endTimestamp),
      progress: dbl(r.progress),
      ...assetAmountRow('estimated_reward_', r.estimatedReward),
    })),
  }),
};
