/** The primary-network world's records, in the response shapes of the interface spec. */

export interface AssetAmount {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
  type: string;
  amount: string;
}

export interface Utxo {
  addresses: string[];
  asset: AssetAmount;
  consumedOnChainId: string;
  consumingTxHash?: string;
  createdOnChainId: string;
  utxoId: string;
  utxoBytes: string;
  amount: string;
  assetId: string;
  blockNumber: string;
  blockTimestamp: number;
  consumingBlockNumber?: string;
  consumingBlockTimestamp?: number;
  platformLocktime: number;
  outputIndex: number;
  rewardType?: 'VALIDATOR' | 'DELEGATOR' | 'VALIDATOR_FEE';
  stakeableLocktime: number;
  staked: boolean;
  threshold: number;
  txHash: string;
  utxoEndTimestamp?: number;
  utxoStartTimestamp?: number;
  utxoType: 'STAKE' | 'TRANSFER';
}

export interface BlsCredentials {
  publicKey: string;
  proofOfPossession: string;
}

export interface L1ValidatorDetail {
  validationId: string;
  validationIdHex: string;
  nodeId: string;
  subnetId: string;
  /** uint64 on the wire: bigints, sent as exact JSON integers (see publicShapes.ts). */
  weight: bigint;
  remainingBalance: bigint;
  balanceChange: bigint;
  blsCredentials: BlsCredentials;
}

export interface PnTransaction {
  txHash: string;
  txType: string;
  blockTimestamp: number;
  blockNumber: string;
  blockHash: string;
  consumedUtxos: Utxo[];
  emittedUtxos: Utxo[];
  sourceChain?: string;
  destinationChain?: string;
  value: AssetAmount[];
  amountBurned: AssetAmount[];
  amountStaked: AssetAmount[];
  amountL1ValidatorBalanceBurned: AssetAmount[];
  startTimestamp?: number;
  endTimestamp?: number;
  delegationFeePercent?: string;
  nodeId?: string;
  subnetId?: string;
  l1ValidatorManagerDetails?: { blockchainId: string; contractAddress: string };
  l1ValidatorDetails?: L1ValidatorDetail[];
  estimatedReward?: string;
  rewardTxHash?: string;
  rewardAddresses?: string[];
  memo: string;
  stakingTxHash?: string;
  subnetOwnershipInfo?: { locktime: number; threshold: number; addresses: string[] };
  blsCredentials?: BlsCredentials;
  /** genesisData: an EVM genesis object for EVM chains, an encoded string for other VMs. */
  blockchainInfo?: { chainName: string; vmId: string; genesisData: Record<string, unknown> | string };
}

export interface Vertex {
  vertexHash: string;
  parentHashes: string[];
  vertexHeight: number;
  vertexIndex: number;
  vertexTimestamp: number;
  txCount: number;
  transactions: string[];
  vertexSizeBytes: number;
}
