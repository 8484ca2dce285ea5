/**
 * An EVM genesis for a simulated Subnet-EVM chain, with every top-level and config field the spec
 * lists for `blockchainInfo.genesisData`.
 */
export function genesisData(chainId: number, timestamp: number, admin: string): Record<string, unknown> {
  const allowList = { blockTimestamp: timestamp, adminAddresses: [admin], managerAddresses: [], enabledAddresses: [] };
  return {
    airdropAmount: null,
    airdropHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    alloc: { [admin.slice(2)]: { balance: '0x52b7d2dcc80cd2e4000000', code: '0x', storage: {} } },
    baseFeePerGas: null,
    blobGasUsed: null,
    coinbase: '0x0000000000000000000000000000000000000000',
    config: {
      berlinBlock: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      homesteadBlock: 0,
      istanbulBlock: 0,
      londonBlock: 0,
      muirGlacierBlock: 0,
      petersburgBlock: 0,
      subnetEVMTimestamp: 0,
      chainId,
      eip150Hash: '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0',
      feeConfig: {
        baseFeeChangeDenominator: 36,
        blockGasCostStep: 200000,
        gasLimit: 8000000,
        maxBlockGasCost: 1000000,
        minBaseFee: 25000000000,
        minBlockGasCost: 0,
        targetBlockRate: 2,
        targetGas: 15000000,
      },
      allowFeeRecipients: false,
      warpConfig: { blockTimestamp: timestamp, quorumNumerator: 67, requirePrimaryNetworkSigners: false },
      txAllowListConfig: allowList,
      contractDeployerAllowListConfig: allowList,
      contractNativeMinterConfig: allowList,
      feeManagerConfig: allowList,
      rewardManagerConfig: allowList,
    },
    difficulty: '0x0',
    excessBlobGas: null,
    extraData: '0x',
    gasLimit: '0x7a1200',
    gasUsed: '0x0',
    mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '0x0',
    number: '0x0',
    parentHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    timestamp: `0x${timestamp.toString(16)}`,
  };
}
