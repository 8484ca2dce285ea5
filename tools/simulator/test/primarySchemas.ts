import { z } from 'zod';

/** Zod schemas of the primary-network response shapes (spec tables), strict on the listed fields. */

const decimal = z.string().regex(/^\d+$/);
const cb58 = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,52}$/);
const bareAddress = z.string().regex(/^(avax|fuji)1[02-9ac-hj-np-z]{38}$/);
const nodeIdRe = z.string().regex(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/);
const hex = z.string().regex(/^0x[0-9a-f]*$/);

export const assetAmount = z.object({
  assetId: cb58,
  name: z.string(),
  symbol: z.string(),
  denomination: z.number().int(),
  type: z.string(),
  amount: decimal,
});

export const chainInfo = z.object({ chainName: z.enum(['p-chain', 'x-chain', 'c-chain']), network: z.enum(['mainnet', 'fuji']) });

export const utxo = z.strictObject({
  addresses: z.array(bareAddress).min(1),
  asset: assetAmount,
  consumedOnChainId: cb58,
  consumingTxHash: cb58.optional(),
  createdOnChainId: cb58,
  utxoId: cb58,
  utxoBytes: hex,
  amount: decimal,
  assetId: cb58,
  blockNumber: decimal,
  blockTimestamp: z.number().int(),
  consumingBlockNumber: decimal.optional(),
  consumingBlockTimestamp: z.number().int().optional(),
  platformLocktime: z.number().int(),
  outputIndex: z.number().int(),
  rewardType: z.enum(['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE']).optional(),
  stakeableLocktime: z.number().int(),
  staked: z.boolean(),
  threshold: z.number().int(),
  txHash: cb58,
  utxoEndTimestamp: z.number().int().optional(),
  utxoStartTimestamp: z.number().int().optional(),
  utxoType: z.enum(['STAKE', 'TRANSFER']),
});

/** X- and C-chain UTXOs: the generic Utxo shape (SDK `Utxo`). */
export const genericUtxo = z.strictObject({
  addresses: z.array(bareAddress).min(1),
  asset: assetAmount,
  consumedOnChainId: cb58,
  consumingTxHash: cb58.optional(),
  createdOnChainId: cb58,
  utxoId: cb58,
  utxoBytes: hex,
  consumingTxTimestamp: z.number().int().optional(),
  creationTxHash: cb58,
  credentials: z.array(z.strictObject({ signature: hex, publicKey: hex })).optional(),
  groupId: z.number().int().optional(),
  locktime: z.number().int(),
  outputIndex: z.string().regex(/^\d+$/),
  payload: hex.optional(),
  threshold: z.number().int(),
  timestamp: z.number().int(),
  utxoType: z.enum(['transfer', 'mint']),
});

/** uint64 as a lossless reader returns it: a number up to 2^53, the digits beyond. */
const uint64 = z.union([z.number().int().min(0), decimal]);

const bls = z.strictObject({ publicKey: z.string().regex(/^0x[0-9a-f]{96}$/), proofOfPossession: z.string().regex(/^0x[0-9a-f]{192}$/) });

export const transaction = z.strictObject({
  txHash: cb58,
  txType: z.string(),
  blockTimestamp: z.number().int(),
  blockNumber: decimal,
  blockHash: cb58,
  consumedUtxos: z.array(utxo),
  emittedUtxos: z.array(utxo),
  sourceChain: cb58.optional(),
  destinationChain: cb58.optional(),
  value: z.array(assetAmount),
  amountBurned: z.array(assetAmount),
  amountStaked: z.array(assetAmount),
  amountL1ValidatorBalanceBurned: z.array(assetAmount),
  startTimestamp: z.number().int().optional(),
  endTimestamp: z.number().int().optional(),
  delegationFeePercent: z.string().optional(),
  nodeId: nodeIdRe.optional(),
  subnetId: cb58.optional(),
  l1ValidatorManagerDetails: z.strictObject({ blockchainId: cb58, contractAddress: z.string().regex(/^0x[0-9a-f]{40}$/) }).optional(),
  l1ValidatorDetails: z
    .array(
      z.strictObject({
        validationId: cb58,
        validationIdHex: z.string().regex(/^0x[0-9a-f]{64}$/),
        nodeId: nodeIdRe,
        subnetId: cb58,
        weight: uint64,
        remainingBalance: uint64,
        balanceChange: uint64,
        blsCredentials: bls,
      }),
    )
    .optional(),
  estimatedReward: decimal.optional(),
  rewardTxHash: cb58.optional(),
  rewardAddresses: z.array(bareAddress).optional(),
  memo: z.string(),
  stakingTxHash: cb58.optional(),
  subnetOwnershipInfo: z.strictObject({ locktime: z.number().int(), threshold: z.number().int(), addresses: z.array(bareAddress) }).optional(),
  blsCredentials: bls.optional(),
  blockchainInfo: z.strictObject({ chainName: z.string(), vmId: cb58, genesisData: z.union([z.record(z.string(), z.unknown()), hex]) }).optional(),
});

const xCommon = {
  txHash: cb58,
  timestamp: z.number().int(),
  txType: z.enum(['BaseTx', 'CreateAssetTx', 'OperationTx', 'ImportTx', 'ExportTx']),
  memo: z.string(),
  consumedUtxos: z.array(genericUtxo),
  emittedUtxos: z.array(genericUtxo),
  amountUnlocked: z.array(assetAmount),
  amountCreated: z.array(assetAmount),
  sourceChain: cb58.optional(),
  destinationChain: cb58.optional(),
  assetCreated: assetAmount.omit({ amount: true }).extend({ createdAtTimestamp: z.number().int(), cap: z.enum(['fixed', 'variable']) }).strict().optional(),
};

/** X-chain transactions: linear (in a block) or non-linear (in vertices, before linearization). */
export const xTransaction = z.union([
  z.strictObject({ ...xCommon, chainFormat: z.literal('linear'), blockHeight: z.number().int().min(0), blockHash: cb58 }),
  z.strictObject({ ...xCommon, chainFormat: z.literal('non-linear'), vertices: z.array(z.strictObject({ hash: cb58, height: z.number().int().min(0), timestamp: z.number().int() })).min(1) }),
]);

const cCommon = {
  txHash: cb58,
  blockHeight: z.number().int().min(0),
  blockHash: cb58,
  timestamp: z.number().int(),
  memo: z.string(),
  amountUnlocked: z.array(assetAmount),
  amountCreated: z.array(assetAmount),
  sourceChain: cb58,
  destinationChain: cb58,
};
const evmAddress = z.string().regex(/^0x[0-9a-f]{40}$/);

/** C-chain atomic transactions. */
export const cTransaction = z.union([
  z.strictObject({
    ...cCommon,
    txType: z.literal('ExportTx'),
    evmInputs: z.array(z.strictObject({ fromAddress: evmAddress, asset: assetAmount, credentials: z.array(z.strictObject({ signature: hex, publicKey: hex })) })).min(1),
    emittedUtxos: z.array(genericUtxo),
  }),
  z.strictObject({ ...cCommon, txType: z.literal('ImportTx'), evmOutputs: z.array(z.strictObject({ toAddress: evmAddress, asset: assetAmount })).min(1), consumedUtxos: z.array(genericUtxo) }),
]);

const balanceAmount = assetAmount.extend({ utxoCount: z.number().int() });
const atomicAmount = balanceAmount.extend({ sharedWithChainId: cb58, status: z.string() });

export const pBalances = z.strictObject({
  unlockedUnstaked: z.array(balanceAmount),
  unlockedStaked: z.array(balanceAmount),
  lockedPlatform: z.array(balanceAmount),
  lockedStakeable: z.array(balanceAmount),
  lockedStaked: z.array(balanceAmount),
  pendingStaked: z.array(balanceAmount),
  atomicMemoryUnlocked: z.array(atomicAmount),
  atomicMemoryLocked: z.array(atomicAmount),
});
export const xBalances = z.strictObject({
  locked: z.array(balanceAmount),
  unlocked: z.array(balanceAmount),
  atomicMemoryUnlocked: z.array(atomicAmount),
  atomicMemoryLocked: z.array(atomicAmount),
});
export const cBalances = z.strictObject({ atomicMemoryUnlocked: z.array(atomicAmount), atomicMemoryLocked: z.array(atomicAmount) });

const validatorCommon = {
  txHash: cb58,
  nodeId: nodeIdRe,
  subnetId: cb58,
  amountStaked: decimal,
  delegationFee: z.string().optional(),
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
  blsCredentials: bls.optional(),
};
const validatorRewards = z.strictObject({
  validationRewardAmount: decimal,
  delegationRewardAmount: decimal,
  rewardAddresses: z.array(bareAddress).optional(),
  rewardTxHash: cb58.optional(),
});
const percent = z.number().min(0).max(100);

/** One strict shape per validationStatus, as the public service sends them (SDK *ValidatorDetails). */
export const validator = z.discriminatedUnion('validationStatus', [
  z.strictObject({
    ...validatorCommon,
    validationStatus: z.literal('active'),
    stakePercentage: percent,
    delegatorCount: z.number().int(),
    amountDelegated: decimal,
    uptimePerformance: percent,
    avalancheGoVersion: z.string().regex(/^avalanchego\/\d+\.\d+\.\d+$/),
    delegationCapacity: decimal,
    potentialRewards: validatorRewards,
    validatorHealth: z.strictObject({
      reachabilityPercent: percent,
      benchedPChainRequestsPercent: percent,
      benchedXChainRequestsPercent: percent,
      benchedCChainRequestsPercent: percent,
    }),
    geolocation: z
      .strictObject({ city: z.string(), country: z.string(), countryCode: z.string().regex(/^[A-Z]{2}$/), latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .nullable(),
  }),
  z.strictObject({ ...validatorCommon, validationStatus: z.literal('completed'), delegatorCount: z.number().int(), amountDelegated: decimal, rewards: validatorRewards }),
  z.strictObject({ ...validatorCommon, validationStatus: z.literal('removed'), removeTxHash: cb58, removeTimestamp: z.number().int() }),
  z.strictObject({ ...validatorCommon, validationStatus: z.literal('pending') }),
]);

const money = z.strictObject({ currencyCode: z.string(), value: z.string().regex(/^\d+(\.\d+)?$/) });

export const historicalReward = z.strictObject({
  addresses: z.array(bareAddress),
  txHash: cb58,
  amountStaked: decimal,
  nodeId: nodeIdRe,
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
  rewardType: z.enum(['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE']),
  utxoId: cb58,
  outputIndex: z.number().int(),
  reward: assetAmount.extend({ historicalPrice: money }),
  rewardTxHash: cb58,
});

export const pendingReward = z.strictObject({
  addresses: z.array(bareAddress),
  txHash: cb58,
  amountStaked: decimal,
  nodeId: nodeIdRe,
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
  rewardType: z.enum(['VALIDATOR', 'DELEGATOR']),
  progress: z.number().min(0).max(1),
  estimatedReward: assetAmount,
});

export const vertex = z.strictObject({
  vertexHash: cb58,
  parentHashes: z.array(cb58),
  vertexHeight: z.number().int().min(0),
  vertexIndex: z.number().int().min(0),
  vertexTimestamp: z.number().int(),
  txCount: z.number().int(),
  transactions: z.array(cb58),
  vertexSizeBytes: z.number().int(),
});

export const errorBody = z.strictObject({ message: z.union([z.string(), z.array(z.string())]), statusCode: z.number().int(), error: z.string() });
