import { WEIGHT } from '../http/route.ts';
import type { RouteDef } from '../http/route.ts';

/** The EVM chains of the world (GET /v1/chains, not paged); under drift one more (http/drift.ts). */
export const chainsRoute: RouteDef = {
  method: 'GET',
  path: '/v1/chains',
  weight: WEIGHT.free,
  service: 'data',
  handler(ctx) {
    return {
      chains: ctx.world.evm.chains.map((c) => ({
        chainId: c.spec.chainId,
        status: 'OK',
        chainName: c.spec.chainName,
        network: c.spec.network,
        blockchainId: c.spec.blockchainId,
        isTestnet: c.spec.network !== 'mainnet',
        vmName: 'EVM',
      })),
    };
  },
};
