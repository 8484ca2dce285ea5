import { endpoints } from '../api/endpoints/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { defineStream, getEach, rowsOf, type StreamClient } from './streamDef.ts';
import { chainListPartitions } from './shared/blockRanges.ts';
import { evmNativeBalancesTable, nativeBalanceEntry, NativeBalanceEntry } from './shared/evmNativeBalances.ts';

/** The native balance of one configured address. */
async function balanceOf(client: StreamClient, p: PartitionSpec, address: string): Promise<NativeBalanceEntry> {
  const r = await client.call(endpoints.evm.getNativeBalance, { chainId: String(p.params.chainId), address });
  return nativeBalanceEntry(r.nativeTokenBalance, address);
}

/** One get per address; the page token is the index of the next address (a walk over the config list). */
export const evmNativeBalances = defineStream({
  name: 'evm.native_balances',
  mode: 'snapshot-replace',
  ...getEach(endpoints.evm.getNativeBalance, 'addresses', balanceOf),
  items: NativeBalanceEntry,
  sources: [rowsOf(evmNativeBalancesTable)],
  partitions: (config) => chainListPartitions('evm.native_balances', config, 'addresses', (c) => c.addresses),
});
