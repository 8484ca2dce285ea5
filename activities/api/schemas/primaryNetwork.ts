import { z } from 'zod';
import { AssetAmount, AtomicMemoryBalanceAmount, BalanceAmount, BlsCredentials, ChainInfo, RewardAmount, pageToken } from './common.ts';
import { boolean, decimal, enumOf, integer, number, opt, strings } from './fields.ts';

/**
 * Primary-network resources. One schema per resource covers the P-, X- and C-chain variants of the
 * public service: the union of their fields, all optional except the id.
 */

export const Utxo = z.looseObject({
  utxoId: z.string(),
  addresses: opt(strings),
  asset: opt(AssetAmount),
  consumedOnChainId: opt(z.string()),
  consumingTxHash: opt(z.string()),
  createdOnChainId: opt(z.string()),
  utxoBytes: opt(z.string()),
  amount: opt(decimal),
  assetId: opt(z.string()),
  blockNumber: opt(decimal),
  blockTimestamp: opt(integer),
  consumingBlockNumber: opt(decimal),
  consumingBlockTimestamp: opt(integer),
  platformLocktime: opt(integer),
  outputIndex: opt(integer),
  rewardType: opt(enumOf('rewardType')),
  stakeableLocktime: opt(integer),
  staked: opt(boolean),
  threshold: opt(integer),
  txHash: opt(z.string()),
  utxoEndTimestamp: opt(integer),
  utxoStartTimestamp: opt(integer),
  /** P-chain: STAKE/TRANSFER; X-chain: lowercase (transfer, mint, ...). Stored as sent. */
  utxoType: opt(enumOf('utxoType')),
  // Generic Utxo (X- and C-chain) fields; the row mapping fills the P-chain columns from them too.
  creationTxHash: opt(z.string()),
  consumingTxTimestamp: opt(integer),
  locktime: opt(integer),
  timestamp: opt(integer),
  groupId: opt(integer),
  payload: opt(z.string()),
  credentials: opt(z.array(z.looseObject({ signature: opt(z.string()), publicKey: opt(z.string()) }))),
});
export type Utxo = z.infer<typeof Utxo>;

export const L1ValidatorDetail = z.looseObject({
  validationId: opt(z.string()),
  validationIdHex: opt(z.string()),
  nodeId: opt(z.string()),
  subnetId: opt(z.string()),
  // uint64 sent as JSON numbers, above 2^53 included: the lossless parse hands those over as text.
  weight: opt(decimal),
  remainingBalance: opt(decimal),
  balanceChange: opt(decimal),
  blsCredentials: opt(z.looseObject({})),
});
export type L1ValidatorDetail = z.infer<typeof L1ValidatorDetail>;

const allowListConfig = z.looseObject({
  blockTimestamp: opt(integer),
  adminAddresses: opt(strings),
  managerAddresses: opt(strings),
  enabledAddresses: opt(strings),
});

/** EVM genesis of a created chain. Kept loose: it is stored as JSON, not as columns. */
export const GenesisData = z.looseObject({
  airdropAmount: opt(z.unknown()),
  airdropHash: opt(z.string()),
  alloc: opt(z.record(z.string(), z.looseObject({ balance: opt(z.unknown()), code: opt(z.string()), storage: opt(z.record(z.string(), z.unknown())) }))),
  baseFeePerGas: opt(z.unknown()),
  blobGasUsed: opt(z.unknown()),
  coinbase: opt(z.string()),
  config: opt(
    z.looseObject({
      chainId: opt(z.unknown()),
      eip150Hash: opt(z.string()),
      feeConfig: opt(z.looseObject({})),
      allowFeeRecipients: opt(boolean),
      warpConfig: opt(z.looseObject({ blockTimestamp: opt(integer), quorumNumerator: opt(integer), requirePrimaryNetworkSigners: opt(boolean) })),
      txAllowListConfig: opt(allowListConfig),
      contractDeployerAllowListConfig: opt(allowListConfig),
      contractNativeMinterConfig: opt(allowListConfig),
      feeManagerConfig: opt(allowListConfig),
      rewardManagerConfig: opt(allowListConfig),
    }),
  ),
  difficulty: opt(z.unknown()),
  excessBlobGas: opt(z.unknown()),
  extraData: opt(z.string()),
  gasLimit: opt(z.unknown()),
  gasUsed: opt(z.unknown()),
  mixHash: opt(z.string()),
  nonce: opt(z.unknown()),
  number: opt(z.unknown()),
  parentHash: opt(z.string()),
  timestamp: opt(z.unknown()),
});
export type GenesisData = z.infer<typeof GenesisData>;

export const PrimaryNetworkTransaction = z.looseObject({
  txHash: z.string(),
  /** PrimaryNetworkTxType; values outside the known list are stored as sent. */
  txType: opt(enumOf('primaryNetworkTxType')),
  blockTimestamp: opt(integer),
  blockNumber: opt(decimal),
  blockHash: opt(z.string()),
  consumedUtxos: opt(z.array(Utxo)),
  emittedUtxos: opt(z.array(Utxo)),
  sourceChain: opt(z.string()),
  destinationChain: opt(z.string()),
  value: opt(z.array(AssetAmount)),
  amountBurned: opt(z.array(AssetAmount)),
  amountStaked: opt(z.array(AssetAmount)),
  amountL1ValidatorBalanceBurned: opt(z.array(AssetAmount)),
  startTimestamp: opt(integer),
  endTimestamp: opt(integer),
  delegationFeePercent: opt(decimal),
  nodeId: opt(z.string()),
  subnetId: opt(z.string()),
  l1ValidatorManagerDetails: opt(z.looseObject({ blockchainId: opt(z.string()), contractAddress: opt(z.string()) })),
  l1ValidatorDetails: opt(z.array(L1ValidatorDetail)),
  estimatedReward: opt(decimal),
  rewardTxHash: opt(z.string()),
  rewardAddresses: opt(strings),
  memo: opt(z.string()),
  stakingTxHash: opt(z.string()),
  subnetOwnershipInfo: opt(z.looseObject({ locktime: opt(integer), threshold: opt(integer), addresses: opt(strings) })),
  blsCredentials: opt(BlsCredentials),
  /** genesisData: an EVM genesis object, or an encoded string for a chain of another VM. */
  blockchainInfo: opt(z.looseObject({ chainName: opt(z.string()), vmId: opt(z.string()), genesisData: opt(z.union([GenesisData, z.string()])) })),
  // X-chain (linear and non-linear) and C-chain atomic variant fields.
  chainFormat: opt(enumOf('xChainFormat')),
  timestamp: opt(integer),
  blockHeight: opt(decimal),
  vertices: opt(z.array(z.looseObject({ hash: opt(z.string()), height: opt(integer), timestamp: opt(integer) }))),
  amountUnlocked: opt(z.array(AssetAmount)),
  amountCreated: opt(z.array(AssetAmount)),
  assetCreated: opt(z.looseObject({})),
  evmInputs: opt(z.array(z.looseObject({ fromAddress: opt(z.string()), asset: opt(AssetAmount) }))),
  evmOutputs: opt(z.array(z.looseObject({ toAddress: opt(z.string()), asset: opt(AssetAmount) }))),
});
export type PrimaryNetworkTransaction = z.infer<typeof PrimaryNetworkTransaction>;

const balanceList = opt(z.array(BalanceAmount));
const atomicList = opt(z.array(AtomicMemoryBalanceAmount));

/** P-chain keys per the interface; X-chain adds locked/unlocked; C-chain has only atomic memory. */
export const Balances = z.looseObject({
  unlockedUnstaked: balanceList,
  unlockedStaked: balanceList,
  lockedPlatform: balanceList,
  lockedStakeable: balanceList,
  lockedStaked: balanceList,
  pendingStaked: balanceList,
  atomicMemoryUnlocked: atomicList,
  atomicMemoryLocked: atomicList,
  locked: balanceList,
  unlocked: balanceList,
});
export type Balances = z.infer<typeof Balances>;

/** rewards (completed) and potentialRewards (active): amounts in nAVAX. */
const ValidatorRewards = z.looseObject({
  validationRewardAmount: opt(decimal),
  delegationRewardAmount: opt(decimal),
  rewardAddresses: opt(strings),
  rewardTxHash: opt(z.string()),
});

/**
 * A validation of the validator list, in the public service's per-status shapes (SDK
 * Active/Completed/Removed/PendingValidatorDetails) as one schema: the common fields, then what each
 * status adds, all optional. validatorHealth and geolocation stay open objects (stored as JSON);
 * geolocation is null when the service cannot place the node.
 */
export const Validator = z.looseObject({
  nodeId: z.string(),
  txHash: opt(z.string()),
  subnetId: opt(z.string()),
  amountStaked: opt(decimal),
  delegationFee: opt(decimal),
  startTimestamp: opt(integer),
  endTimestamp: opt(integer),
  blsCredentials: opt(BlsCredentials),
  /** completed | active | pending | removed (other values stored as sent). */
  validationStatus: opt(enumOf('validationStatus')),
  // active and completed
  delegatorCount: opt(integer),
  amountDelegated: opt(decimal),
  // completed
  rewards: opt(ValidatorRewards),
  // active
  stakePercentage: opt(number),
  uptimePerformance: opt(number),
  avalancheGoVersion: opt(z.string()),
  delegationCapacity: opt(decimal),
  potentialRewards: opt(ValidatorRewards),
  validatorHealth: opt(
    z.looseObject({
      reachabilityPercent: opt(number),
      benchedPChainRequestsPercent: opt(number),
      benchedXChainRequestsPercent: opt(number),
      benchedCChainRequestsPercent: opt(number),
    }),
  ),
  geolocation: opt(z.looseObject({ city: opt(z.string()), country: opt(z.string()), countryCode: opt(z.string()), latitude: opt(number), longitude: opt(number) })),
  // removed
  removeTxHash: opt(z.string()),
  removeTimestamp: opt(integer),
});
export type Validator = z.infer<typeof Validator>;

/** The staking fields a paid reward and a pending one share. */
const rewardedStake = {
  txHash: z.string(),
  addresses: opt(strings),
  amountStaked: opt(decimal),
  nodeId: opt(z.string()),
  startTimestamp: opt(integer),
  endTimestamp: opt(integer),
  rewardType: opt(enumOf('rewardType')),
};

export const HistoricalReward = z.looseObject({
  ...rewardedStake,
  utxoId: opt(z.string()),
  outputIndex: opt(integer),
  reward: opt(RewardAmount),
  rewardTxHash: opt(z.string()),
});
export type HistoricalReward = z.infer<typeof HistoricalReward>;

export const PendingReward = z.looseObject({
  ...rewardedStake,
  progress: opt(number),
  estimatedReward: opt(AssetAmount),
});
export type PendingReward = z.infer<typeof PendingReward>;

export const Vertex = z.looseObject({
  vertexHash: z.string(),
  parentHashes: opt(strings),
  vertexHeight: opt(integer),
  vertexIndex: opt(integer),
  vertexTimestamp: opt(integer),
  txCount: opt(integer),
  transactions: opt(strings),
  vertexSizeBytes: opt(integer),
});
export type Vertex = z.infer<typeof Vertex>;

// Responses. The list key is structural: missing or not an array is a validation error.

export const UtxosPage = z.looseObject({ nextPageToken: pageToken, utxos: z.array(Utxo), chainInfo: opt(ChainInfo) });
export type UtxosPage = z.infer<typeof UtxosPage>;

export const PrimaryNetworkTransactionsPage = z.looseObject({
  nextPageToken: pageToken,
  transactions: z.array(PrimaryNetworkTransaction),
  chainInfo: opt(ChainInfo),
});
export type PrimaryNetworkTransactionsPage = z.infer<typeof PrimaryNetworkTransactionsPage>;

export const BalancesResponse = z.looseObject({ balances: Balances, chainInfo: opt(ChainInfo) });
export type BalancesResponse = z.infer<typeof BalancesResponse>;

export const ValidatorsPage = z.looseObject({ nextPageToken: pageToken, validators: z.array(Validator) });
export type ValidatorsPage = z.infer<typeof ValidatorsPage>;

export const HistoricalRewardsPage = z.looseObject({ nextPageToken: pageToken, historicalRewards: z.array(HistoricalReward) });
export type HistoricalRewardsPage = z.infer<typeof HistoricalRewardsPage>;

export const PendingRewardsPage = z.looseObject({ nextPageToken: pageToken, pendingRewards: z.array(PendingReward) });
export type PendingRewardsPage = z.infer<typeof PendingRewardsPage>;

export const VerticesPage = z.looseObject({ nextPageToken: pageToken, vertices: z.array(Vertex), chainInfo: opt(ChainInfo) });
export type VerticesPage = z.infer<typeof VerticesPage>;
