import { delegationCapacity, type NetworkGenerator } from './generator.ts';
import { asciiBytes, spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
import { sortByKey, type SortKey } from './keyedWalk.ts';
import { nodeProfile } from './nodeProfile.ts';
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

/**
 * The validation set a list is served from, at one time: what a validator's entry needs beyond the
 * validation itself. stakePercentage is the validation's share of the amountStaked of the active
 * validations of its subnet (so the active entries of a subnet add up to 100).
 */
export interface ValidatorSet {
  now: number;
  /** amountStaked summed over the active validations, per subnet. */
  activeStake: Map<string, bigint>;
  /** stakePercentage text per active validation, filled as entries are spelled. */
  percentText: Map<Validation, string>;
}

const sets = new WeakMap<readonly Validation[], ValidatorSet & { count: number }>();

/** The set of these validations at `now`; kept until the time or the validations change (every page of a walk shares it). */
export function validatorSet(validations: readonly Validation[], now: number): ValidatorSet {
  const cached = sets.get(validations);
  if (cached !== undefined && cached.now === now && cached.count === validations.length) return cached;
  const activeStake = new Map<string, bigint>();
  for (const v of validations) if (statusOf(v, now) === 'active') activeStake.set(v.subnetId, (activeStake.get(v.subnetId) ?? 0n) + v.stake);
  const set = { now, activeStake, percentText: new Map<Validation, string>(), count: validations.length };
  sets.set(validations, set);
  return set;
}

/** Percent with six decimals, rounded down (exact integer arithmetic, then one division). */
function stakePercentage(v: Validation, set: ValidatorSet): number {
  const total = set.activeStake.get(v.subnetId) ?? 0n;
  return total === 0n ? 0 : Number((v.stake * 100_000_000n) / total) / 1_000_000;
}

function stakePercentText(v: Validation, set: ValidatorSet): string {
  let t = set.percentText.get(v);
  if (t === undefined) {
    t = String(stakePercentage(v, set));
    set.percentText.set(v, t);
  }
  return t;
}

/**
 * Spells the Validator response object of one validation into w, in the public service's shape for
 * its status (the list hot path: no object, no spreads, no string concatenation; the delegation
 * sums are kept by the generator and the fields that never change are spelled once per
 * validation). validatorTemplate is the reference it must equal byte for byte (tests compare
 * them). Ids (cb58, NodeID-, bech32, hex) and the node profile's texts never need escaping.
 *   active:    common fields, stakePercentage, delegatorCount, amountDelegated, uptimePerformance,
 *              avalancheGoVersion, delegationCapacity, potentialRewards, validatorHealth, geolocation
 *   completed: common fields, delegatorCount, amountDelegated, rewards
 *   removed:   common fields, removeTxHash, removeTimestamp
 *   pending:   common fields only
 */
export function writeValidator(w: AsciiWriter, v: Validation, set: ValidatorSet): void {
  const status = statusOf(v, set.now);
  const fixed = fixedParts(v);
  w.bytes(fixed.head);
  if (status === 'active') {
    w.bytes(F.stakePercentage);
    w.ascii(stakePercentText(v, set));
    w.bytes(F.delegatorCount);
    w.uint(v.delegations.length);
    w.bytes(F.amountDelegated);
    writeBig(w, v.delegated);
    w.bytes(fixed.active);
    writeBig(w, delegationCapacity(v));
    w.bytes(fixed.potentialRewards);
    writeBig(w, v.delegationFees);
    w.bytes(fixed.activeEnd);
  } else if (status === 'completed') {
    w.bytes(F.delegatorCount);
    w.uint(v.delegations.length);
    w.bytes(F.amountDelegated);
    writeBig(w, v.delegated);
    w.bytes(fixed.rewards);
    writeBig(w, v.paidDelegationFees);
    w.bytes(fixed.rewardAddresses);
    if (v.rewardTx) {
      w.bytes(F.rewardTxHash);
      w.ascii(v.rewardTx.tx.txHash);
      w.byte(34); // "
    }
    w.bytes(F.completed);
  } else if (status === 'removed') {
    w.bytes(F.removed);
    w.ascii(v.removeTx!.tx.txHash);
    w.bytes(F.removeTimestamp);
    w.uint(v.removeTx!.tx.blockTimestamp);
    w.bytes(F.removedEnd);
  } else w.bytes(F.pending);
}

/** writeValidator as one string (tests, tools). */
export function validatorJsonText(v: Validation, set: ValidatorSet): string {
  return spellText((w) => writeValidator(w, v, set));
}

/** Fixed fragments of writeValidator, in field order. */
const F = {
  stakePercentage: asciiBytes(',"stakePercentage":'),
  delegatorCount: asciiBytes(',"delegatorCount":'),
  amountDelegated: asciiBytes(',"amountDelegated":"'),
  completed: asciiBytes('},"validationStatus":"completed"}'),
  pending: asciiBytes(',"validationStatus":"pending"}'),
  removed: asciiBytes(',"removeTxHash":"'),
  removeTimestamp: asciiBytes('","removeTimestamp":'),
  removedEnd: asciiBytes(',"validationStatus":"removed"}'),
  rewardTxHash: asciiBytes(',"rewardTxHash":"'),
};

/** Decimal digits of a non-negative amount (most fit a double exactly: digits without BigInt's toString). */
function writeBig(w: AsciiWriter, x: bigint): void {
  if (x <= MAX_SAFE) w.uint(Number(x));
  else w.ascii(x.toString());
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * What of a validation never changes once it exists, as JSON bytes, spelled once per validation
 * with the fixed text around it: the fields up to endTimestamp (and blsCredentials), the uptime,
 * the node profile, the validation reward and the reward addresses.
 */
interface FixedParts {
  /** `{"txHash":…` through endTimestamp (and blsCredentials). */
  head: Uint8Array;
  /** `","uptimePerformance":…,"avalancheGoVersion":"…","delegationCapacity":"` (after amountDelegated's digits). */
  active: Uint8Array;
  /** `","potentialRewards":{"validationRewardAmount":"…","delegationRewardAmount":"`. */
  potentialRewards: Uint8Array;
  /** `"},"validationStatus":"active","validatorHealth":{…},"geolocation":…}`. */
  activeEnd: Uint8Array;
  /** `","rewards":{"validationRewardAmount":"…","delegationRewardAmount":"`. */
  rewards: Uint8Array;
  /** `","rewardAddresses":[…]`, or `"` when there are none (subnet validations are not rewarded). */
  rewardAddresses: Uint8Array;
}

const fixed = new WeakMap<Validation, FixedParts>();

function fixedParts(v: Validation): FixedParts {
  let parts = fixed.get(v);
  if (parts !== undefined) return parts;
  let s = `{"txHash":"${v.tx.tx.txHash}","nodeId":"${v.nodeId}","subnetId":"${v.subnetId}","amountStaked":"${v.stake}"`;
  if (v.feePercent !== undefined) s += `,"delegationFee":"${v.feePercent}"`;
  s += `,"startTimestamp":${v.start},"endTimestamp":${v.end}`;
  if (v.blsKey) {
    const c = v.blsKey.credentials;
    s += `,"blsCredentials":{"publicKey":"${c.publicKey}","proofOfPossession":"${c.proofOfPossession}"}`;
  }
  const node = nodeProfile(v.nodeId);
  parts = {
    head: asciiBytes(s),
    active: asciiBytes(`","uptimePerformance":${v.uptime},"avalancheGoVersion":"${node.avalancheGoVersion}","delegationCapacity":"`),
    potentialRewards: asciiBytes(`","potentialRewards":{"validationRewardAmount":"${v.reward}","delegationRewardAmount":"`),
    activeEnd: asciiBytes(`"},"validationStatus":"active","validatorHealth":${JSON.stringify(node.validatorHealth)},"geolocation":${JSON.stringify(node.geolocation)}}`),
    rewards: asciiBytes(`","rewards":{"validationRewardAmount":"${v.reward}","delegationRewardAmount":"`),
    rewardAddresses: asciiBytes(v.rewardAddresses.length > 0 ? `","rewardAddresses":[${v.rewardAddresses.map((a) => `"${a}"`).join(',')}]` : '"'),
  };
  fixed.set(v, parts);
  return parts;
}

/** The Validator response object of one validation in `set` (the reference spelling of validatorJsonText). */
export function validatorTemplate(v: Validation, set: ValidatorSet): Record<string, unknown> {
  const status = statusOf(v, set.now);
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
  };
  const node = nodeProfile(v.nodeId);
  if (status === 'active') {
    out.stakePercentage = stakePercentage(v, set);
    out.delegatorCount = v.delegations.length;
    out.amountDelegated = delegated.toString();
    out.uptimePerformance = v.uptime;
    out.avalancheGoVersion = node.avalancheGoVersion;
    out.delegationCapacity = delegationCapacity(v).toString();
    out.potentialRewards = { validationRewardAmount: v.reward.toString(), delegationRewardAmount: feeRewards.toString() };
    out.validationStatus = status;
    out.validatorHealth = node.validatorHealth;
    out.geolocation = node.geolocation;
  } else if (status === 'completed') {
    out.delegatorCount = v.delegations.length;
    out.amountDelegated = delegated.toString();
    out.rewards = {
      validationRewardAmount: v.reward.toString(),
      delegationRewardAmount: v.delegations.filter((d) => d.rewardTx).reduce((s, d) => s + d.fee, 0n).toString(),
      rewardAddresses: v.rewardAddresses.length > 0 ? v.rewardAddresses : undefined,
      rewardTxHash: v.rewardTx?.tx.txHash,
    };
    out.validationStatus = status;
  } else if (status === 'removed') {
    out.removeTxHash = v.removeTx!.tx.txHash;
    out.removeTimestamp = v.removeTx!.tx.blockTimestamp;
    out.validationStatus = status;
  } else out.validationStatus = status;
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
