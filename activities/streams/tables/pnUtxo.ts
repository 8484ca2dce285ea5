import type { Utxo } from '../../api/schemas/index.ts';
import type { ColumnDef, Row } from '../../warehouse/tableDef.ts';
import { assetAmount, col } from '../columns.ts';
import { bool, huge, int, i64, json, str, strs, u64 } from '../values.ts';

/**
 * Every Utxo field (P-, X- and C-chain variants); `asset` flattened to asset_*; credentials as JSON.
 * The generic X/C shape (creationTxHash, timestamp, consumingTxTimestamp, outputIndex as text,
 * amount only in asset.amount) fills the same amount / asset_id / tx_hash / block_timestamp /
 * consuming_block_timestamp / output_index columns as PChainUtxo, and keeps its own fields as sent.
 */
export const utxoColumns: ColumnDef[] = [
  col('utxo_id', 'VARCHAR'),
  col('addresses', 'VARCHAR[]', 'owner addresses (LIST)'),
  col('amount', 'HUGEINT', 'smallest unit (nAVAX for AVAX); X/C-chain: asset.amount'),
  col('asset_id', 'VARCHAR', 'assetId'),
  // The nested `asset` (AssetAmount) as asset_name, asset_symbol, ... (its assetId is asset_id above).
  ...assetAmount('asset_')
    .filter((c) => c.name !== 'asset_asset_id')
    .map((c) => ({ ...c, name: c.name.replace('asset_asset_', 'asset_'), comment: `asset.${c.name.replace('asset_asset_', '')}` })),
  col('tx_hash', 'VARCHAR', 'creating transaction (X/C-chain: creationTxHash)'),
  col('output_index', 'INTEGER'),
  col('block_number', 'UBIGINT'),
  col('block_timestamp', 'BIGINT', 'epoch seconds (X/C-chain: timestamp)'),
  col('created_on_chain_id', 'VARCHAR'),
  col('consumed_on_chain_id', 'VARCHAR'),
  col('consuming_tx_hash', 'VARCHAR', 'NULL while unspent'),
  col('consuming_block_number', 'UBIGINT'),
  col('consuming_block_timestamp', 'BIGINT', 'X/C-chain: consumingTxTimestamp'),
  col('utxo_bytes', 'VARCHAR'),
  col('platform_locktime', 'BIGINT'),
  col('stakeable_locktime', 'BIGINT'),
  col('staked', 'BOOLEAN'),
  col('threshold', 'INTEGER'),
  col('reward_type', 'VARCHAR', 'as sent (VALIDATOR, DELEGATOR, VALIDATOR_FEE, ...)'),
  col('utxo_type', 'VARCHAR', 'as sent (STAKE, TRANSFER, transfer, mint, ...)'),
  col('utxo_start_timestamp', 'BIGINT'),
  col('utxo_end_timestamp', 'BIGINT'),
  col('creation_tx_hash', 'VARCHAR', 'X/C-chain Utxo as sent (also in tx_hash)'),
  col('consuming_tx_timestamp', 'BIGINT', 'X/C-chain Utxo as sent (also in consuming_block_timestamp)'),
  col('locktime', 'BIGINT', 'X/C-chain Utxo: output time lock'),
  col('timestamp', 'BIGINT', 'X/C-chain Utxo as sent (also in block_timestamp)'),
  col('group_id', 'INTEGER', 'X/C-chain Utxo'),
  col('payload', 'VARCHAR', 'X/C-chain Utxo'),
  col('credentials', 'JSON', 'X/C-chain Utxo: list of {signature, publicKey}'),
];

/**
 * A Utxo as a row; `txHashColumn` names the column of the creating transaction (the child table of
 * transactions calls it utxo_tx_hash). One object literal: this runs for every UTXO of every page.
 */
export function utxoRow(u: Utxo, txHashColumn = 'tx_hash'): Row {
  const row: Row = {
    utxo_id: u.utxoId,
    addresses: strs(u.addresses),
    amount: huge(u.amount ?? u.asset?.amount),
    asset_id: str(u.assetId ?? u.asset?.assetId),
    asset_name: str(u.asset?.name),
    asset_symbol: str(u.asset?.symbol),
    asset_denomination: int(u.asset?.denomination),
    asset_type: str(u.asset?.type),
    asset_amount: huge(u.asset?.amount),
    output_index: int(u.outputIndex),
    block_number: u64(u.blockNumber),
    block_timestamp: i64(u.blockTimestamp ?? u.timestamp),
    created_on_chain_id: str(u.createdOnChainId),
    consumed_on_chain_id: str(u.consumedOnChainId),
    consuming_tx_hash: str(u.consumingTxHash),
    consuming_block_number: u64(u.consumingBlockNumber),
    consuming_block_timestamp: i64(u.consumingBlockTimestamp ?? u.consumingTxTimestamp),
    utxo_bytes: str(u.utxoBytes),
    platform_locktime: i64(u.platformLocktime),
    stakeable_locktime: i64(u.stakeableLocktime),
    staked: bool(u.staked),
    threshold: int(u.threshold),
    reward_type: str(u.rewardType),
    utxo_type: str(u.utxoType),
    utxo_start_timestamp: i64(u.utxoStartTimestamp),
    utxo_end_timestamp: i64(u.utxoEndTimestamp),
    creation_tx_hash: str(u.creationTxHash),
    consuming_tx_timestamp: i64(u.consumingTxTimestamp),
    locktime: i64(u.locktime),
    timestamp: i64(u.timestamp),
    group_id: int(u.groupId),
    payload: str(u.payload),
    credentials: json(u.credentials),
  };
  row[txHashColumn] = str(u.txHash ?? u.creationTxHash);
  return row;
}
