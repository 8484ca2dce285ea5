/**
 * Every enumeration the interface names, each declared once with the values this release knows
 * (spec/real-api-facts.md, "Enumerations"; the official SDK's enum objects). A schema field typed by
 * one (`enumOf(ENUMERATIONS.x)`) still accepts any string: a value outside the list is stored as
 * sent and recorded as `new_enum_value` drift (activities/streams/unmapped.ts).
 */
export const ENUMERATIONS = {
  /** PrimaryNetworkTxType (P-, X- and C-chain `txType`), the L1 ones included. */
  primaryNetworkTxType: [
    'AddValidatorTx', 'AddDelegatorTx', 'AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'AddSubnetValidatorTx', 'RemoveSubnetValidatorTx',
    'RewardValidatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx', 'AdvanceTimeTx', 'BaseTx', 'TransformSubnetTx', 'TransferSubnetOwnershipTx',
    'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx', 'SetL1ValidatorWeightTx', 'IncreaseL1ValidatorBalanceTx', 'DisableL1ValidatorTx', 'CreateAssetTx', 'OperationTx', 'UNKNOWN',
  ],
  /** X-chain transactions' `chainFormat` (XChainLinearTransaction, XChainNonLinearTransaction). */
  xChainFormat: ['linear', 'non-linear'],
  /** A validation's `validationStatus` (ValidationStatusType). */
  validationStatus: ['completed', 'active', 'pending', 'removed'],
  /** `rewardType` of UTXOs and rewards (RewardType). */
  rewardType: ['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE'],
  /** `utxoType`: P-chain UtxoType (STAKE, TRANSFER); the X- and C-chain generic Utxo sends lower-case output types. */
  utxoType: ['STAKE', 'TRANSFER', 'transfer', 'mint'],
  /** AssetAmount `type` (PrimaryNetworkAssetType). */
  assetType: ['secp256k1', 'nft'],
  /** A token's `ercType`. */
  ercType: ['ERC-20', 'ERC-721', 'ERC-1155', 'UNKNOWN'],
  /** Erc20TokenBalance `tokenReputation` (null when unrated). */
  tokenReputation: ['Malicious', 'Benign'],
  /** NFT metadata `indexStatus` (NftTokenMetadataStatus; lower-case `indexed` is seen too). */
  nftIndexStatus: [
    'UNKNOWN', 'MISSING_TOKEN', 'INVALID_TOKEN_URI', 'INVALID_TOKEN_URI_SCHEME', 'UNREACHABLE_TOKEN_URI', 'THROTTLED_TOKEN_URI',
    'METADATA_CONTENT_TOO_LARGE', 'INVALID_METADATA', 'INVALID_METADATA_JSON', 'INDEXED', 'UNINDEXED', 'indexed',
  ],
  /** A native transaction's `method.callType` (TransactionMethodType). */
  callType: ['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION'],
  /** InternalTransaction `internalTxType` (InternalTransactionOpCall). */
  internalTxType: ['UNKNOWN', 'CALL', 'CREATE', 'CREATE2', 'CREATE3', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'],
  /** teleporterMessageInfo `direction` (TransactionDirectionType). */
  teleporterDirection: ['SOURCE_TRANSACTION', 'DESTINATION_TRANSACTION'],
} as const satisfies Record<string, readonly string[]>;

export type EnumerationName = keyof typeof ENUMERATIONS;
