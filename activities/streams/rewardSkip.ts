import type { ResolvedConfig } from '../../common/config.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';
import { partitionId } from './partitionIds.ts';
import type { DeriveContext, Discovered } from './streamDef.ts';
import { rewardPartitions } from './shared/rewardPartitions.ts';

/**
 * pn.rewards in a sync that also walks the P-chain's transactions chain-wide: a reward partition asks
 * the list only when a reward may be missing.
 *
 * A historical reward is one output with a rewardType of a RewardValidatorTx (the SDK's
 * PChainTransaction names its staking transaction, `stakingTxHash`; the staking transaction names
 * the node). The chain-wide walk stores every P-chain transaction down to the last walk's top, so
 * once it has completed in this run, every reward paid up to its top is an emitted output in
 * pn_transaction_utxos. A partition whose matching outputs (an address of its set on the output, or
 * its node set holding the staking transaction's node, or a staking transaction not stored) all have
 * their pn_rewards row cannot gain anything from the list (sql/ops/unrecordedRewards.sql): its walk
 * completes without a request, keeping its mark, so its next walk still reads down to it. A reward
 * paid after the transaction walk's top is stored by the next run's transaction walk, and then
 * counts as missing until a walk of the list stores it. No position is kept: the check is of state,
 * so a crash anywhere, a backfill that walked the rewards before the transactions, or an earlier
 * skip cannot hide a reward.
 *
 * The partitions of such a sync run in the derived wave, after the transaction walks; a sync whose
 * chain-wide P-chain walk did not complete in this run (failed, not configured, held by another
 * shard's warehouse) walks every partition, as a backfill does.
 */
export function rewardsFollowTransactions(plan?: Discovered): boolean {
  return plan?.mode === 'sync' && plan.streams?.includes('pn.transactions') === true;
}

/** Every reward partition of such a sync (configured and discovered: all run in the derived wave), without the check. */
export function rewardSyncPartitions(config: ResolvedConfig, plan: Discovered): PartitionSpec[] {
  return [...rewardPartitions('pn.rewards', config), ...rewardPartitions('pn.rewards', config, plan)];
}

/** The derived wave's reward partitions, each marked with whether its walk may complete without a request. */
export function withRewardCheck(config: ResolvedConfig, plan: Discovered<ReadonlySet<string>>): PartitionSpec[] {
  return rewardSyncPartitions(config, plan).map((p) => ({ ...p, params: { ...p.params, rewardsComplete: plan.derived?.has(p.id) === true } }));
}

/** Planning of the derived wave: in a sync beside the P-chain transaction walk, the partitions with every reward stored. */
export const deriveRewardsComplete = async ({ warehouse, config, plan, runId }: DeriveContext): Promise<Set<string> | undefined> =>
  rewardsFollowTransactions(plan) ? rewardsComplete(warehouse, config, rewardSyncPartitions(config, plan), runId) : undefined;

/** A sync walk of a reward partition that has a mark and nothing the list could add: no request. */
export const rewardsUnchanged = (p: PartitionSpec, cursor: { known?: string }): boolean => p.params.rewardsComplete === true && cursor.known !== undefined;

/** The reward partitions (ids) of a sync whose rewards are all stored already (module comment). */
export async function rewardsComplete(warehouse: Warehouse, config: ResolvedConfig, partitions: PartitionSpec[], runId: string | undefined): Promise<Set<string>> {
  const complete = new Set<string>();
  if (runId === undefined) return complete;
  for (const p of partitions) {
    const network = String(p.params.network);
    const pChain = config.networks.find((n) => n.network === network)?.chains.find((c) => c === 'p-chain');
    if (!pChain) continue;
    const cp = await warehouse.readCheckpoint(partitionId('pn.transactions', network, pChain));
    if (cp?.complete !== true || cp.cursor.runId !== runId) continue;
    const list = (k: string) => ((p.params[k] as string[] | undefined) ?? []).join(',');
    const rows = await warehouse.query(sqlFile('ops/unrecordedRewards.sql'), [network, pChain, list('addresses'), list('nodeIds')]);
    if (Number(rows[0]?.n ?? 1) === 0) complete.add(p.id);
  }
  return complete;
}
