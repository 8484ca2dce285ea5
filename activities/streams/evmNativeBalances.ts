import { z } from 'zod';
import { endpoints } from '../api/endpoints/index.ts';
import { NativeTokenBalance } from '../api/schemas/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { defineStream, getEach, rowsOf, type StreamClient } from './streamDef.ts';
import { chainListPartitions } from './shared/blockRanges.ts';
import { evmNativeBalancesTable, type NativeBalanceEntry } from './shared/evmNativeBalances.ts';

/** The native balance of one configured address. */
async function balanceOf(client: StreamClient, p: PartitionSpec, address: string): Promise<NativeBalanceEntry> {
  const r = await client.call(endpoints.evm.getNativeBalance, { chainId: String(p.params.chainId), address });
  return { address, balance: r.nativeTokenBalance };
}

/** One get per address; the page token is the index of the next address (a walk over the config list). */
export const evmNativeBalances = defineStream({
  name: 'evm.native_balances',
  mode: 'snapshot-replace',
  ...getEach(endpoints.evm.getNativeBalance, 'addresses', balanceOf),
  items: z.looseObject({ address: z.string(), balance: NativeTokenBalance }),
  sources: [rowsOf(evmNativeBalancesTable)],
  partitions: (config) => chainListPartitions('evm.native_balances', config, 'addresses', (c) => c.addresses),
});
