import { notFound } from '../http/apiError.ts';
import type { RequestContext } from '../http/route.ts';
import type { EvmChainModel } from '../evm/chainModel.ts';

/** The chain named by the `chainId` path parameter (numeric chain id or blockchain id), else 404. */
export function evmChainOf(ctx: RequestContext): EvmChainModel {
  const model = ctx.world.evm.chain(ctx.params.chainId);
  if (!model) throw notFound(`Chain ${ctx.params.chainId} not found`);
  return model;
}
