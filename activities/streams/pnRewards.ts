import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { HistoricalReward } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { assetAmount, assetAmountRow, col, money, moneyRow } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { rewardPartitions } from './tables/rewardPartitions.ts';
import { huge, int, i64, str, strs } from './values.ts';

export const pnRewardsTable: TableDef = {
  name: 'pn_rewards',
  comment: 'Historical staking rewards (HistoricalReward); reward (RewardAmount) flattened to reward_* with its historicalPrice as reward_historical_price_*.',
  columns: [
    col('network', 'VARCHAR'),
    col('tx_hash', 'VARCHAR', 'staking tx'),
    col('utxo_id', 'VARCHAR', 'reward UTXO; empty string when absent (part of the key)'),
    col('reward_type', 'VARCHAR', 'VALIDATOR, DELEGATOR, VALIDATOR_FEE; other values as sent'),
    col('addresses', 'VARCHAR[]'),
    col('amount_staked', 'HUGEINT', 'nAVAX'),
    col('node_id', 'VARCHAR'),
    col('start_timestamp', 'BIGINT'),
    col('end_timestamp', 'BIGINT', 'epoch seconds (reward time)'),
    col('output_index', 'INTEGER'),
    ...assetAmount('reward_'),
    ...money('reward_historical_price'),
    col('reward_tx_hash', 'VARCHAR'),
  ],
  primaryKey: ['network', 'tx_hash', 'utxo_id'],
  merge: 'upsert',
  export: { partitionBy: ['network'], dateFrom: 'end_timestamp' },
};

export const pnRewards: StreamDef<HistoricalReward> = {
  name: 'pn.rewards',
  endpoint: 'GET /v1/networks/{network}/rewards',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listHistoricalRewards,
  takesDiscovered: true,
  tables: [pnRewardsTable],
  partitions: (config, discovered) => rewardPartitions('pn.rewards', config, discovered),
  // Rewards never change once paid and the list is newest-first: a sync walks until the last walk's newest reward.
  identity: (r) => `${r.txHash}/${r.utxoId ?? ''}`,
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.primaryNetwork.listHistoricalRewards, {
      network: p.params.network as Network,
      addresses: p.params.addresses as string[] | undefined,
      nodeIds: p.params.nodeIds as string[] | undefined,
      // Newest first (the list's default, stated because the incremental walk relies on it).
      sortOrder: 'desc',
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.historicalRewards, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    pn_rewards: page.items.map((r) => ({
      network: String(ctx.partition.params.network),
      tx_hash: r.txHash,
      utxo_id: r.utxoId ?? '',
      reward_type: str(r.rewardType),
      addresses: strs(r.addresses),
      amount_staked: huge(r.amountStaked),
      node_id: str(r.nodeId),
      start_timestamp: i64(r.startTimestamp),
      end_timestamp: i64(r.endTimestamp),
      output_index: int(r.outputIndex),
      ...assetAmountRow('reward_', r.reward),
      ...moneyRow('reward_historical_price', r.reward?.historicalPrice),
      reward_tx_hash: str(r.rewardTxHash),
    })),
  }),
};
