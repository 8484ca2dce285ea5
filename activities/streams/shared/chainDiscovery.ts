import type { ResolvedConfig } from '../../../common/config.ts';
import type { Logger } from '../../../common/logger.ts';
import type { PlanInput } from '../../../common/activityTypes.ts';
import { endpoints } from '../../api/endpoints/index.ts';
import { newMeter } from '../../api/requestMeter.ts';
import { sampleOf } from '../../warehouse/driftRecord.ts';
import { recordPlanCost, type Warehouse } from '../../warehouse/warehouse.ts';
import type { StreamClient, StreamDriver } from '../streamDef.ts';

/** A run reads the chain list when it walks EVM streams of configured chains. */
export function listsChains(config: ResolvedConfig, selected: readonly StreamDriver[]): boolean {
  return config.evmChains.length > 0 && selected.some((s) => s.name.startsWith('evm.'));
}

/**
 * The chain list (one Free request per pipeline run that syncs EVM streams): a chain the API lists
 * after the first run's list, and the config does not name, is new_chain drift (`status` lists it as
 * discovered, not configured). A service without the list is left alone.
 */
export async function discoverChains(client: StreamClient, warehouse: Warehouse, config: ResolvedConfig, input: PlanInput, logger: Logger): Promise<void> {
  const meter = newMeter();
  const endpoint = endpoints.evm.listChains;
  try {
    const list = await client.call(endpoint, {}, { partition: 'plan', meter });
    const configured = new Set(config.evmChains.map((c) => c.chainId));
    const chains = list.chains.map((c) => ({ chainId: c.chainId, sample: sampleOf({ chainName: c.chainName, network: c.network, blockchainId: c.blockchainId }) }));
    const drift = await warehouse.recordChainList(input.runId!, chains, configured);
    for (const d of drift) logger.warn({ chainId: d.path, chain: d.sample }, 'the API lists a chain the config does not name');
  } catch (error) {
    logger.warn({ err: String(error) }, 'could not read the chain list');
  }
  if (meter.requests > 0) {
    await recordPlanCost(warehouse, { runId: input.runId!, mode: input.mode ?? 'sync', snapshotAt: input.snapshotAt ?? 0, cost: { ...meter, items: 0, weight: endpoint.weight, pageLimit: null } });
  }
}
