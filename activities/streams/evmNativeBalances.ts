import { endpoints } from '../api/endpoints/index.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, rowsOf } from './streamDef.ts';
import { evmNativeBalancesTable } from './tables/evmNativeBalances.ts';

/** One get per address; the page token is the index of the next address (a walk over the config list). */
export const evmNativeBalances = defineStream({
  name: 'evm.native_balances',
  mode: 'snapshot-replace',
  walks: endpoints.evm.getNativeBalance,
  async fetchPage(client, p, s) {
    const addresses = p.params.addresses as string[];
    const index = Number(s.pageToken ?? 0);
    const address = addresses[index];
    const r = await client.call(endpoints.evm.getNativeBalance, { chainId: String(p.params.chainId), address });
    return { items: [{ address, balance: r.nativeTokenBalance }], nextPageToken: index + 1 < addresses.length ? String(index + 1) : undefined };
  },
  sources: [rowsOf(evmNativeBalancesTable)],
  partitions: (config) =>
    config.evmChains
      .filter((c) => c.addresses.length > 0)
      .map((c) => ({ stream: 'evm.native_balances' as const, id: partitionId('evm.native_balances', c.chainId), chain: c.chainId, params: { chainId: c.chainId, addresses: c.addresses } })),
});
