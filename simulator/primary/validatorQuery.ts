import { PRIMARY_NETWORK_ID } from './chains.ts';
import { delegationCapacity, type NetworkGenerator } from './generator.ts';
import { sortByKey, type SortKey } from './keyedWalk.ts';
import type { Validation } from './registry.ts';

export type ValidationStatus = 'pending' | 'active' | 'completed' | 'removed';
export const VALIDATOR_SORTS = ['blockIndex', 'delegationCapacity', 'timeRemaining', 'delegationFee', 'uptimePerformance'] as const;

export interface ValidatorFilter {
  nodeIds: string[];
  sortBy: (typeof VALIDATOR_SORTS)[number];
  sortOrder: 'asc' | 'desc';
  validationStatus?: ValidationStatus;
  minDelegationCapacity?: bigint;
  maxDelegationCapacity?: bigint;
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  /** Set when either fee filter was given: subnet validations (no fee) are then excluded. */
  fee?: { min: number; max: number };
  minUptimePerformance: number;
  maxUptimePerformance: number;
  subnetId?: string;
}

/** Status from the validation's times and the world clock (the head of the P-chain). */
export function statusOf(v: Validation, now: number): ValidationStatus {
  if (v.removeTx) return 'removed';
  if (v.start > now) return 'pending';
  if (v.end <= now) return 'completed';
  return 'active';
}

/** The Validator response object of one validation at time `now`. */
export function validatorJson(v: Validation, now: number): Record<string, unknown> {
  const status = statusOf(v, now);
  const delegated = v.delegations.reduce((s, d) => s + d.stake, 0n);
  const feeRewards = v.delegations.reduce((s, d) => s + d.fee, 0n);
  const out: Record<string, unknown> = {
    txHash: v.tx.tx.txHash,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    amountStaked: v.stake.toString(),
    ...(v.feePercent !== undefined ? { delegationFee: String(v.feePercent) } : {}),
    startTimestamp: v.start,
    endTimestamp: v.end,
    ...(v.blsKey ? { blsCredentials: v.blsKey.credentials } : {}),
    delegatorCount: v.delegations.length,
    amountDelegated: delegated.toString(),
    validationStatus: status,
  };
  if (status === 'active') {
    out.uptimePerformance = v.uptime;
    out.delegationCapacity = delegationCapacity(v).toString();
    out.potentialRewards = { validationRewardAmount: v.reward.toString(), delegationRewardAmount: feeRewards.toString() };
  }
  if (status === 'completed' && v.subnetId === PRIMARY_NETWORK_ID) {
    out.rewards = {
      validationRewardAmount: v.reward.toString(),
      delegationRewardAmount: v.delegations.filter((d) => d.rewardTx).reduce((s, d) => s + d.fee, 0n).toString(),
      rewardAddresses: v.rewardAddresses,
      rewardTxHash: v.rewardTx?.tx.txHash,
    };
  }
  if (status === 'removed') {
    out.removeTxHash = v.removeTx!.tx.txHash;
    out.removeTimestamp = v.removeTx!.tx.blockTimestamp;
  }
  return out;
}

/** Every validation the list returns for these filters, in list order. */
export function listValidators(gen: NetworkGenerator, f: ValidatorFilter): { items: Validation[]; keyOf: (v: Validation) => SortKey } {
  const now = gen.now;
  const timeRemaining = (v: Validation) => Math.max(0, v.end - now);
  const picked = gen.validations.filter((v) => {
    if (f.nodeIds.length > 0 && !f.nodeIds.some((n) => v.nodeId.includes(n))) return false;
    if (f.subnetId !== undefined && v.subnetId !== f.subnetId) return false;
    if (f.validationStatus !== undefined && statusOf(v, now) !== f.validationStatus) return false;
    const capacity = delegationCapacity(v);
    if (f.minDelegationCapacity !== undefined && capacity < f.minDelegationCapacity) return false;
    if (f.maxDelegationCapacity !== undefined && capacity > f.maxDelegationCapacity) return false;
    if (f.minTimeRemaining !== undefined && timeRemaining(v) < f.minTimeRemaining) return false;
    if (f.maxTimeRemaining !== undefined && timeRemaining(v) > f.maxTimeRemaining) return false;
    if (f.fee && (v.feePercent === undefined || v.feePercent < f.fee.min || v.feePercent > f.fee.max)) return false;
    return v.uptime >= f.minUptimePerformance && v.uptime <= f.maxUptimePerformance;
  });
  const seq = (v: Validation) => v.tx.seq;
  const keyOf = (v: Validation): SortKey => {
    switch (f.sortBy) {
      case 'delegationCapacity':
        return [delegationCapacity(v).toString(), seq(v)];
      case 'timeRemaining':
        return [timeRemaining(v), seq(v)];
      case 'delegationFee':
        return [v.feePercent ?? 0, seq(v)];
      case 'uptimePerformance':
        return [v.uptime, seq(v)];
      default:
        return [seq(v)];
    }
  };
  return { items: sortByKey(picked, keyOf, f.sortOrder), keyOf };
}
