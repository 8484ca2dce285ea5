import type { NativeTokenBalance } from '../../api/schemas/index.ts';
import type { Row, TableDef } from '../../warehouse/tableDef.ts';
import { col, money, moneyRow, uint256, uint256Row } from '../columns.ts';
import { int, str } from '../values.ts';

export const evmNativeBalancesTable: TableDef = {
  name: 'evm_native_balances',
  comment:
    'Native token balance (NativeTokenBalance) of each configured EVM address per snapshot (snapshot_at = run snapshot time, epoch seconds); from balances:getNative and the nativeTokenBalance of the ERC balance pages.',
  columns: [
    col('chain_id', 'VARCHAR', 'the partition chain'),
    col('address', 'VARCHAR'),
    col('snapshot_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    col('token_chain_id', 'VARCHAR', 'nativeTokenBalance.chainId'),
    col('name', 'VARCHAR'),
    col('symbol', 'VARCHAR'),
    col('decimals', 'INTEGER'),
    col('logo_uri', 'VARCHAR'),
    ...money('price'),
    ...uint256('balance', 'wei'),
    ...money('balance_value'),
  ],
  primaryKey: ['chain_id', 'address', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'snapshot_at' },
};

export function nativeBalanceRow(chainId: string, address: string, snapshotAt: number, b: NativeTokenBalance): Row {
  return {
    chain_id: chainId,
    address,
    snapshot_at: BigInt(snapshotAt),
    token_chain_id: str(b.chainId),
    name: str(b.name),
    symbol: str(b.symbol),
    decimals: int(b.decimals),
    logo_uri: str(b.logoUri),
    ...moneyRow('price', b.price),
    ...uint256Row('balance', b.balance),
    ...moneyRow('balance_value', b.balanceValue),
  };
}
