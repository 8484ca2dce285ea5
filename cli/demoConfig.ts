import type { SimulatorOptions, WorldDescription } from './simulatorLoader.ts';
import { validateConfig, type PipelineConfig } from '../worker/config.ts';

/**
 * The demo's simulator answers with rate-limit headers (so the client paces itself as it would
 * against the public service) but with budgets no demo exhausts: under the public tiers' CU
 * budgets the default world spends most of its time in quota waits (a keyless client gets 6,000
 * CU per minute), which shows nothing a user came for. `glacier-etl simulator` enforces the
 * public budgets by default; `bench:quota` measures that path.
 */
export const DEMO_RATE_LIMITS: SimulatorOptions['rateLimits'] = {
  budgets: Object.fromEntries((['none', 'free', 'base', 'growth', 'pro'] as const).map((tier) => [tier, { perMinute: 1e12, perDay: 1e15 }])),
  metricsBudget: { perMinute: 1e12, perDay: 1e15 },
};

/** What the primary-network part of a world description offers for configs, per network (read loosely). */
type PrimaryDescriptionLike = Partial<Record<'mainnet' | 'fuji', { addresses?: string[]; nodeIds?: string[] }>>;

/**
 * A pipeline config that covers every stream of a simulated world: its EVM chains with sample
 * addresses, contracts, transactions and NFTs, and the primary network with sample addresses and
 * node ids. Validated by the same schema as a user's file.
 */
export function configForWorld(world: WorldDescription, base: { baseUrl: string; metricsUrl: string; dataDir: string; addressesPerChain?: number }): PipelineConfig {
  const take = base.addressesPerChain ?? 3;
  const primary = (world.primary ?? {}) as PrimaryDescriptionLike;
  const mainnetPrimary = primary.mainnet ?? {};
  const raw = {
    dataDir: base.dataDir,
    api: { baseUrl: base.baseUrl, metricsUrl: base.metricsUrl, tier: 'pro', concurrency: 8 },
    partitionConcurrency: 6,
    networks: [
      {
        network: 'mainnet',
        chains: ['p-chain', 'x-chain', 'c-chain'],
        addresses: (mainnetPrimary.addresses ?? []).slice(0, take),
        nodeIds: (mainnetPrimary.nodeIds ?? []).slice(0, take),
        rewardsForDiscoveredValidators: false,
      },
    ],
    evmChains: world.evm.chains
      .filter((c) => c.network === 'mainnet')
      .map((c) => ({
        chainId: c.chainId,
        addresses: world.evm.addresses.slice(0, take),
        contracts: world.evm.contracts.filter((t) => t.chainId === c.chainId).map((t) => t.address),
        transactions: world.evm.txHashes.filter((t) => t.chainId === c.chainId).map((t) => t.txHash),
        nfts: world.evm.nfts.filter((n) => n.chainId === c.chainId).map((n) => ({ contract: n.address, tokenId: n.tokenId })),
      })),
  };
  return validateConfig(raw, 'demo config');
}
