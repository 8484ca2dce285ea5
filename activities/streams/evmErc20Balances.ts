import { endpoints } from '../api/endpoints/index.ts';
import type { Erc20TokenBalance } from '../api/schemas/index.ts';
import { defineTable, erc20Token, money, snapshotAt, uint256, varchar } from './columns.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { ERC_BALANCE_SCOPE, ownerKey, ownerRequest, perAddressPartitions } from './shared/ercBalancePartitions.ts';
import { nativeBalanceBeside } from './shared/evmNativeBalances.ts';

export const evmErc20BalancesTable = defineTable<Erc20TokenBalance>({
  name: 'evm_erc20_balances',
  comment: 'ERC-20 balances (Erc20TokenBalance) of each configured address per snapshot; token fields flattened to token_*.',
  columns: [
    ownerKey(),
    varchar('token_address', (b) => b.address),
    snapshotAt('snapshot_at'),
    erc20Token('token', (b) => b, false),
    varchar('token_chain_id', (b) => b.chainId, 'chainId of the balance entry'),
    uint256('balance', (b) => b.balance, 'token smallest unit'),
    money('balance_value', (b) => b.balanceValue),
    varchar('token_reputation', (b) => b.tokenReputation, 'Malicious, Benign or NULL; other values as sent'),
  ],
  primaryKey: ['chain_id', 'address', 'token_address', 'snapshot_at'],
  merge: 'versions',
  versions: { scope: ERC_BALANCE_SCOPE },
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
});

export const evmErc20Balances = defineStream({
  name: 'evm.erc20_balances',
  mode: 'snapshot-replace',
  // Spam filtering off: the warehouse keeps everything, tokenReputation says what it is.
  ...listWalk(endpoints.evm.listErc20Balances, (p) => ({ ...ownerRequest(p), filterSpamTokens: false })),
  sources: [rowsOf(evmErc20BalancesTable), nativeBalanceBeside()],
  partitions: (config) => perAddressPartitions('evm.erc20_balances', config),
});
