import { PRIMARY_NETWORK_ID } from './chains.ts';
import { delegationCapacity, type NetworkGenerator } from './generator.ts';
import { asciiBytes, spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
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

/**
 * Spells the Validator response object of one validation at time `now` into w (the list hot path:
 * no object, no spreads, no string concatenation; the delegation sums are kept by the generator
 * and the fields that never change are spelled once per validation). validatorTemplate is the
 * reference it must equal byte for byte (tests compare them). Ids (cb58, NodeID-, bech32, hex)
 * never need escaping.
 */
export function writeValidator(w: AsciiWriter, v: Validation, now: number): void {
  const status = statusOf(v, now);
  const fixed = fixedParts(v);
  w.bytes(fixed.head);
  w.uint(v.delegations.length);
  w.bytes(F.amountDelegated);
  writeBig(w, v.delegated);
  if (status === 'active') {
    w.bytes(fixed.active);
    writeBig(w, delegationCapacity(v));
    w.bytes(fixed.potentialRewards);
    writeBig(w, v.delegationFees);
    w.bytes(F.closeObject);
  } else if (status === 'completed') {
    if (v.subnetId !== PRIMARY_NETWORK_ID) w.bytes(F.completed);
    else {
      w.bytes(fixed.rewards);
      writeBig(w, v.paidDelegationFees);
      w.bytes(fixed.rewardAddresses);
      if (v.rewardTx) {
        w.bytes(F.rewardTxHash);
        w.ascii(v.rewardTx.tx.txHash);
        w.byte(34); // "
      }
      w.byte(125); // }
    }
  } else if (status === 'removed') {
    w.bytes(F.removed);
    w.ascii(v.removeTx!.tx.txHash);
    w.bytes(F.removeTimestamp);
    w.uint(v.removeTx!.tx.blockTimestamp);
  } else w.bytes(F.pending);
  w.byte(125); // }
}

/** writeValidator as one string (tests, tools). */
export function validatorJsonText(v: Validation, now: number): string {
  return spellText((w) => writeValidator(w, v, now));
}

/** Fixed fragments of writeValidator, in field order. */
const F = {
  amountDelegated: asciiBytes(',"amountDelegated":"'),
  completed: asciiBytes('","validationStatus":"completed"'), pending: asciiBytes('","validationStatus":"pending"'),
  removed: asciiBytes('","validationStatus":"removed","removeTxHash":"'), removeTimestamp: asciiBytes('","removeTimestamp":'),
  closeObject: asciiBytes('"}'), rewardTxHash: asciiBytes(',"rewardTxHash":"'),
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
 * the validation reward and the reward addresses.
 */
interface FixedParts {
  /** ... through `,"delegatorCount":`. */
  head: Uint8Array;
  /** `","validationStatus":"active","uptimePerformance":…,"delegationCapacity":"`. */
  active: Uint8Array;
  /** `","potentialRewards":{"validationRewardAmount":"…","delegationRewardAmount":"`. */
  potentialRewards: Uint8Array;
  /** `","validationStatus":"completed","rewards":{"validationRewardAmount":"…","delegationRewardAmount":"`. */
  rewards: Uint8Array;
  /** `","rewardAddresses":[…]`. */
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
  parts = {
    head: asciiBytes(`${s},"delegatorCount":`),
    active: asciiBytes(`","validationStatus":"active","uptimePerformance":${v.uptime},"delegationCapacity":"`),
    potentialRewards: asciiBytes(`","potentialRewards":{"validationRewardAmount":"${v.reward}","delegationRewardAmount":"`),
    rewards: asciiBytes(`","validationStatus":"completed","rewards":{"validationRewardAmount":"${v.reward}","delegationRewardAmount":"`),
    rewardAddresses: asciiBytes(`","rewardAddresses":[${v.rewardAddresses.map((a) => `"${a}"`).join(',')}]`),
  };
  fixed.set(v, parts);
  return parts;
}

/** The Validator response object of one validation at time `now` (the reference spelling of validatorJsonText). */
export function validatorTemplate(v: Validation, now: number): Record<string, unknown> {
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
