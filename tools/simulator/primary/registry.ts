import type { BlsKey } from './blsKeys.ts';
import type { TxRecord } from './ledger.ts';

/** Staking and subnet state the generator keeps beside the ledger; validators and rewards derive from it. */

export interface Delegation {
  tx: TxRecord;
  nodeId: string;
  validation: Validation;
  stake: bigint;
  start: number;
  end: number;
  rewardAddresses: string[];
  /** Net reward to the delegator; `fee` goes to the validator's reward addresses. */
  reward: bigint;
  fee: bigint;
  rewardTx?: TxRecord;
}

export interface Validation {
  tx: TxRecord;
  nodeId: string;
  subnetId: string;
  /** Primary-network stake in nAVAX, or subnet weight for subnet validators. */
  stake: bigint;
  start: number;
  end: number;
  /** Percent, e.g. 2 or 12.5; undefined for subnet validators. */
  feePercent?: number;
  rewardAddresses: string[];
  reward: bigint;
  delegations: Delegation[];
  /** Running sums over `delegations` (kept by the generator, so a validator's JSON needs no pass over them). */
  delegated: bigint;
  delegationFees: bigint;
  /** Fees of the delegations already rewarded (RewardValidatorTx issued). */
  paidDelegationFees: bigint;
  uptime: number;
  blsKey?: BlsKey;
  rewardTx?: TxRecord;
  removeTx?: TxRecord;
}

export interface L1Validator {
  validationId: string;
  validationIdHex: string;
  nodeId: string;
  subnetId: string;
  blsKey: BlsKey;
  /** Weight history by P-chain height; the validator signs with the weight at a height. */
  weights: { height: number; weight: bigint }[];
  disabledAtHeight?: number;
  balance: bigint;
  /** Simulated liveness: an offline validator never answers signature requests. */
  online: boolean;
}

export interface SubnetRecord {
  subnetId: string;
  owner: string;
  createTx: TxRecord;
  chains: { blockchainId: string; chainName: string }[];
  l1?: { convertTx: TxRecord; managerChainId: string; contractAddress: string; validators: L1Validator[]; /** Every weight of this L1 is a multiple of it (some L1s weigh above 2^53). */ weightUnit: bigint };
}
