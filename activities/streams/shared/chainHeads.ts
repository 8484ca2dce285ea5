import type { ResolvedConfig } from '../../../common/config.ts';
import { endpoints } from '../../api/endpoints/index.ts';
import type { RequestMeter } from '../../api/requestMeter.ts';
import type { StreamClient } from '../streamDef.ts';

/** What planning reads of each chain's head (StreamDecl.needsChainHeads): one 10 CU page of blocks per chain. */
export const CHAIN_HEAD_PROBE = endpoints.evm.listBlocks;

/** The latest block of each configured EVM chain (block-range streams split their backfill by it). */
export async function chainHeads(client: StreamClient, config: ResolvedConfig, meter: RequestMeter): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  for (const c of config.evmChains) {
    const page = await client.call(CHAIN_HEAD_PROBE, { chainId: c.chainId, pageSize: 1 }, { partition: 'plan', meter });
    if (page.blocks[0]) heads.set(c.chainId, Number(page.blocks[0].blockNumber));
  }
  return heads;
}
