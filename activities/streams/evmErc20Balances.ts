import { endpoints } from '../api/endpoints/index.ts';
import type { Erc20TokenBalance, Erc20BalancesPage } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col, erc20Token, erc20TokenRow, money, moneyRow, uint256, uint256Row } from './columns.ts';
import type { StreamDef } from './streamDef.ts';
import { perAddressPartitions } from './tables/ercBalancePartitions.ts';
import { evmNativeBalancesTable, nativeBalanceRow } from './tables/evmNativeBalances.ts';
import { str } from './values.ts';

export const evmErc20BalancesTable: TableDef = {
  name: 'evm_erc20_balances',
  comment: 'ERC-20 balances (Erc20TokenBalance) of each configured address per snapshot; token fields flattened to token_*.',
  columns: [
    col('chain_id', 'VARCHAR', 'the partition chain'),
    col('address', 'VARCHAR', 'owner (configured address)'),
    col('token_address', 'VARCHAR'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    ...erc20Token('token').filter((c) => c.name !== 'token_address'),
    col('token_chain_id', 'VARCHAR', 'chainId of the balance entry'),
    ...uint256('balance', 'token smallest unit'),
    ...money('balance_value'),
    col('token_reputation', 'VARCHAR', 'Malicious, Benign or NULL; other values as sent'),
  ],
  primaryKey: ['chain_id', 'address', 'token_address', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
};

export const evmErc20Balances: StreamDef<Erc20TokenBalance> = {
  name: 'evm.erc20_balances',
  endpoint: 'GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20',
  mode: 'snapshot-replace',
  walks: endpoints.evm.listErc20Balances,
  tables: [evmErc20BalancesTable, evmNativeBalancesTable],
  partitions: (config) => perAddressPartitions('evm.erc20_balances', config),
  async fetchPage(client, p, s) {
    // Spam filtering off: the warehouse keeps everything, tokenReputation says what it is.
    const r = await client.call(endpoints.evm.listErc20Balances, {
      chainId: String(p.params.chainId),
      address: String(p.params.address),
      filterSpamTokens: false,
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.erc20TokenBalances, nextPageToken: r.nextPageToken ?? undefined, response: r };
  },
  normalize: (page, ctx) => {
    const chainId = String(ctx.partition.params.chainId);
    const address = String(ctx.partition.params.address);
    const native = (page.response as Erc20BalancesPage | undefined)?.nativeTokenBalance;
    return {
      evm_erc20_balances: page.items.map((b) => ({
        chain_id: chainId,
        address,
        snapshot_at: BigInt(ctx.snapshotAt),
        ...erc20TokenRow('token', b),
        token_chain_id: str(b.chainId),
        ...uint256Row('balance', b.balance),
        ...moneyRow('balance_value', b.balanceValue),
        token_reputation: str(b.tokenReputation),
      })),
      evm_native_balances: native ? [nativeBalanceRow(chainId, address, ctx.snapshotAt, native)] : [],
    };
  },
};
