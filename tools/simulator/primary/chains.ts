/** Real network constants (docs/public-service.md, Identifiers): chain ids, AVAX asset ids, address hrp. */

export type NetworkName = 'mainnet' | 'fuji';
export type ChainAlias = 'p-chain' | 'x-chain' | 'c-chain';

export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
/** The primary network's subnet id is the P-chain id. */
export const PRIMARY_NETWORK_ID = P_CHAIN_ID;

export interface NetworkConstants {
  name: NetworkName;
  hrp: string;
  networkId: number;
  avaxAssetId: string;
  chainIds: Record<ChainAlias, string>;
}

export const NETWORKS: Record<NetworkName, NetworkConstants> = {
  mainnet: {
    name: 'mainnet',
    hrp: 'avax',
    networkId: 1,
    avaxAssetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    chainIds: {
      'p-chain': P_CHAIN_ID,
      'x-chain': '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
      'c-chain': '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    },
  },
  fuji: {
    name: 'fuji',
    hrp: 'fuji',
    networkId: 5,
    avaxAssetId: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    chainIds: {
      'p-chain': P_CHAIN_ID,
      'x-chain': '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
      'c-chain': 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    },
  },
};

/** `testnet` is another name for fuji; anything else is not a network. */
export function resolveNetwork(name: string): NetworkName | undefined {
  if (name === 'mainnet') return 'mainnet';
  if (name === 'fuji' || name === 'testnet') return 'fuji';
  return undefined;
}

/** Alias or base58 id -> alias, for the chains of one network; undefined when not one of them. */
export function resolveChain(network: NetworkName, blockchainId: string): ChainAlias | undefined {
  const constants = NETWORKS[network];
  for (const alias of Object.keys(constants.chainIds) as ChainAlias[]) {
    if (blockchainId === alias || blockchainId === constants.chainIds[alias]) return alias;
  }
  return undefined;
}

export const AVAX_DENOMINATION = 9;
