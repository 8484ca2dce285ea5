import type { WorldSize } from '../world/size.ts';
import { EVM_CHAIN_SPECS } from './chain.ts';
import { EvmChainModel } from './chainModel.ts';

export interface EvmDescription {
  chains: { chainId: string; blockchainId: string; chainName: string; network: 'mainnet' | 'fuji'; height: number; totalTxs: number }[];
  /** Externally-owned accounts that send and receive on every EVM chain. */
  addresses: string[];
  contracts: { chainId: string; address: string; ercType: string; symbol: string }[];
  txHashes: { chainId: string; txHash: string }[];
  nfts: { chainId: string; address: string; tokenId: string }[];
}

/** The EVM half of the world: one model per chain, looked up by numeric chain id or blockchain id. */
export class EvmWorld {
  readonly chains: EvmChainModel[];
  private readonly byId = new Map<string, EvmChainModel>();

  /** `world`: the World building this half (its seed, size and live growth steps; not imported back). */
  constructor(world: { readonly seed: number; readonly size: WorldSize; readonly steps: number }) {
    this.chains = EVM_CHAIN_SPECS.map((spec) => new EvmChainModel(spec, world.seed, world.size, () => world.steps));
    for (const c of this.chains) {
      this.byId.set(c.spec.chainId, c);
      this.byId.set(c.spec.blockchainId, c);
    }
  }

  chain(id: string): EvmChainModel | undefined {
    return this.byId.get(id);
  }

  describe(): EvmDescription {
    const first = this.chains[0];
    return {
      chains: this.chains.map((c) => ({
        chainId: c.spec.chainId,
        blockchainId: c.spec.blockchainId,
        chainName: c.spec.chainName,
        network: c.spec.network,
        height: c.chain.height(),
        totalTxs: c.chain.totalTxs(),
      })),
      addresses: Array.from({ length: Math.min(first.pool.E, 20) }, (_, e) => first.pool.eoa(e)),
      contracts: this.chains.flatMap((c) => c.tokens.map((t) => ({ chainId: c.spec.chainId, address: t.address, ercType: t.ercType, symbol: t.symbol }))),
      txHashes: this.chains.flatMap((c) => {
        const total = c.chain.totalTxs();
        return [0, Math.floor(total / 2), total - 1].filter((g) => g >= 0).map((g) => ({ chainId: c.spec.chainId, txHash: c.chain.txHash(g) }));
      }),
      nfts: this.chains.flatMap((c) =>
        c.ledgers
          .filter((l) => l.token.ercType !== 'ERC-20')
          .map((l) => ({ chainId: c.spec.chainId, address: l.token.address, tokenId: l.tokenIdOf(0)! })),
      ),
    };
  }
}
