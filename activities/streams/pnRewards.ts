import { endpoints } from '../api/endpoints/index.ts';
import type { HistoricalReward } from '../api/schemas/index.ts';
import { assetAmount, bigint, defineTable, hugeint, integer, money, varchar, varcharList } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { networkColumn, rewardPartitions, rewardRequest } from './shared/rewardPartitions.ts';
import { deriveRewardsComplete, rewardsFollowTransactions, rewardsUnchanged, withRewardCheck } from './rewardSkip.ts';

export const pnRewardsTable = defineTable<HistoricalReward>({
  name: 'pn_rewards',
  comment: 'Historical staking rewards (HistoricalReward); reward (RewardAmount) flattened to reward_* with its historicalPrice as reward_historical_price_*.',
  columns: [
    networkColumn(),
    varchar('tx_hash', (r) => r.txHash, 'staking tx'),
    varchar('utxo_id', (r) => r.utxoId ?? '', 'reward UTXO; empty string when absent (part of the key)'),
    varchar('reward_type', (r) => r.rewardType, 'VALIDATOR, DELEGATOR, VALIDATOR_FEE; other values as sent'),
    varcharList('addresses', (r) => r.addresses),
    hugeint('amount_staked', (r) => r.amountStaked, 'nAVAX'),
    varchar('node_id', (r) => r.nodeId),
    bigint('start_timestamp', (r) => r.startTimestamp),
    bigint('end_timestamp', (r) => r.endTimestamp, 'epoch seconds (reward time)'),
    integer('output_index', (r) => r.outputIndex),
    assetAmount('reward_', (r) => r.reward),
    money('reward_historical_price', (r) => r.reward?.historicalPrice),
    varchar('reward_tx_hash', (r) => r.rewardTxHash),
  ],
  primaryKey: ['network', 'tx_hash', 'utxo_id'],
  export: { partitionBy: ['network'], dateFrom: 'end_timestamp' },
});

export const pnRewards = defineStream({
  name: 'pn.rewards',
  mode: 'snapshot-merge',
  // Newest first (the list's default, stated because the incremental walk relies on it).
  ...listWalk(endpoints.primaryNetwork.listHistoricalRewards, (p) => ({ ...rewardRequest(p), sortOrder: 'desc' as const })),
  sources: [rowsOf(pnRewardsTable)],
  takesDiscovered: true,
  // In a sync beside the P-chain transaction walk, every partition runs after it (derived wave) and
  // asks nothing when every reward that walk stored is in pn_rewards already (rewardSkip.ts).
  partitions: (config, plan) => {
    if (!rewardsFollowTransactions(plan) || plan?.wave === undefined) return rewardPartitions('pn.rewards', config, plan);
    if (plan.wave === 'configured') return [];
    return withRewardCheck(config, plan);
  },
  derive: deriveRewardsComplete,
  unchanged: rewardsUnchanged,
  // Rewards never change once paid and the list is newest-first: a sync walks until the last walk's newest reward.
  identity: (r) => `${r.txHash}/${r.utxoId ?? ''}`,
});
