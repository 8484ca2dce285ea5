import type { Utxo } from '../../api/schemas/index.ts';
import { bigint, boolean, hugeint, integer, json, renamed, ubigint, varchar, varcharList, within, type Column } from '../columns.ts';

const txHash = varchar<Utxo>('tx_hash', (u) => u.txHash ?? u.creationTxHash, 'creating transaction (X/C-chain: creationTxHash)');

/**
 * Every Utxo field (P-, X- and C-chain variants); `asset` flattened to asset_*; credentials as JSON.
 * The generic X/C shape (creationTxHash, timestamp, consumingTxTimestamp, outputIndex as text,
 * amount only in asset.amount) fills the same amount / asset_id / tx_hash / block_timestamp /
 * consuming_block_timestamp / output_index columns as PChainUtxo, and keeps its own fields as sent.
 * `txHashColumn` names the column of the creating transaction (the child table of transactions
 * calls it utxo_tx_hash).
 */
export const utxoColumns = (creatingTx: Column<Utxo> = txHash): Column<Utxo>[] => [
  varchar('utxo_id', (u) => u.utxoId),
  varcharList('addresses', (u) => u.addresses, 'owner addresses (LIST)'),
  hugeint('amount', (u) => u.amount ?? u.asset?.amount, 'smallest unit (nAVAX for AVAX); X/C-chain: asset.amount'),
  varchar('asset_id', (u) => u.assetId ?? u.asset?.assetId, 'assetId'),
  // The nested `asset` (AssetAmount) as asset_name, asset_symbol, ... (its assetId is asset_id above).
  ...within<Utxo, Utxo['asset']>((u) => u.asset, [
    varchar('asset_name', (a) => a?.name, 'asset.name'),
    varchar('asset_symbol', (a) => a?.symbol, 'asset.symbol'),
    integer('asset_denomination', (a) => a?.denomination, 'asset.denomination'),
    varchar('asset_type', (a) => a?.type, 'asset.type'),
    hugeint('asset_amount', (a) => a?.amount, 'asset.asset_amount'),
  ]),
  creatingTx,
  integer('output_index', (u) => u.outputIndex),
  ubigint('block_number', (u) => u.blockNumber),
  bigint('block_timestamp', (u) => u.blockTimestamp ?? u.timestamp, 'epoch seconds (X/C-chain: timestamp)'),
  varchar('created_on_chain_id', (u) => u.createdOnChainId),
  varchar('consumed_on_chain_id', (u) => u.consumedOnChainId),
  varchar('consuming_tx_hash', (u) => u.consumingTxHash, 'NULL while unspent'),
  ubigint('consuming_block_number', (u) => u.consumingBlockNumber),
  bigint('consuming_block_timestamp', (u) => u.consumingBlockTimestamp ?? u.consumingTxTimestamp, 'X/C-chain: consumingTxTimestamp'),
  varchar('utxo_bytes', (u) => u.utxoBytes),
  bigint('platform_locktime', (u) => u.platformLocktime),
  bigint('stakeable_locktime', (u) => u.stakeableLocktime),
  boolean('staked', (u) => u.staked),
  integer('threshold', (u) => u.threshold),
  varchar('reward_type', (u) => u.rewardType, 'as sent (VALIDATOR, DELEGATOR, VALIDATOR_FEE, ...)'),
  varchar('utxo_type', (u) => u.utxoType, 'as sent (STAKE, TRANSFER, transfer, mint, ...)'),
  bigint('utxo_start_timestamp', (u) => u.utxoStartTimestamp),
  bigint('utxo_end_timestamp', (u) => u.utxoEndTimestamp),
  varchar('creation_tx_hash', (u) => u.creationTxHash, 'X/C-chain Utxo as sent (also in tx_hash)'),
  bigint('consuming_tx_timestamp', (u) => u.consumingTxTimestamp, 'X/C-chain Utxo as sent (also in consuming_block_timestamp)'),
  bigint('locktime', (u) => u.locktime, 'X/C-chain Utxo: output time lock'),
  bigint('timestamp', (u) => u.timestamp, 'X/C-chain Utxo as sent (also in block_timestamp)'),
  integer('group_id', (u) => u.groupId, 'X/C-chain Utxo'),
  varchar('payload', (u) => u.payload, 'X/C-chain Utxo'),
  json('credentials', (u) => u.credentials, 'X/C-chain Utxo: list of {signature, publicKey}'),
];

/** The creating-transaction column of a transaction's own UTXO lists. */
export const utxoTxHash = renamed(txHash, 'utxo_tx_hash', 'Utxo.txHash: the transaction that created the UTXO');

/**
 * What the spend of a UTXO sets, after its row is stored (sql/ops/propagateUtxoSpends.sql):
 * pn_utxos' and pn_transaction_utxos' files hold them NULL (`export.deferred`), and their lake-only
 * tables hold them dated by the spend. consumed_on_chain_id is the output's own (set when it is
 * created), so it stays in the base files.
 */
export const UTXO_SPEND_COLUMNS = ['consuming_tx_hash', 'consuming_block_number', 'consuming_block_timestamp', 'consuming_tx_timestamp', 'credentials'];
