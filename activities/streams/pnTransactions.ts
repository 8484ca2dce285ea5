import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { AssetAmount, L1ValidatorDetail, PrimaryNetworkTransaction, Utxo } from '../api/schemas/index.ts';
import { added, assetAmount, bigint, defineTable, hugeint, integer, json, retyped, ubigint, varchar, varcharList, within, type Column } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { childrenOf, defineStream, listWalk, rowsOf, type Child } from './streamDef.ts';
import { addressSet, addressSetPartitions, chainKey } from './shared/pnPartitions.ts';
import { utxoColumns, utxoTxHash } from './shared/pnUtxo.ts';
import type { TableDef } from '../warehouse/tableDef.ts';

type Tx = PrimaryNetworkTransaction;
type Of<I> = Child<Tx, I>;

/** network, blockchain_id, tx_hash: the key every table of a transaction starts with. */
const txKey = <S>(tx: (s: S) => Tx): Column<S>[] => [...chainKey<S>('chain alias as requested (p-chain, x-chain, c-chain)'), varchar('tx_hash', (s) => tx(s).txHash)];
const txTimestamp = (t: Tx) => t.blockTimestamp ?? t.timestamp;
const pnExport = { partitionBy: ['network', 'blockchain_id'], dateFrom: 'block_timestamp' };

export const pnTransactionsTable = defineTable<Tx>({
  name: 'pn_transactions',
  comment:
    'Primary-network transactions (PrimaryNetworkTransaction). Objects flattened (l1_validator_manager_*, subnet_owner_*, bls_*, blockchain_*); genesis data, X-chain vertices and C-chain evmInputs/evmOutputs/assetCreated as JSON. Lists in child tables: pn_transaction_utxos (consumed/emitted), pn_transaction_amounts (value, burned, staked, L1 balance burned, unlocked, created), pn_l1_validator_details.',
  columns: [
    txKey((t) => t),
    varchar('tx_type', (t) => t.txType, 'PrimaryNetworkTxType as sent'),
    bigint('block_timestamp', txTimestamp, 'epoch seconds (X-chain: timestamp)'),
    ubigint('block_number', (t) => t.blockNumber ?? t.blockHeight, 'X-chain linear and C-chain: blockHeight; NULL for non-linear X-chain transactions'),
    varchar('block_hash', (t) => t.blockHash),
    varchar('source_chain', (t) => t.sourceChain),
    varchar('destination_chain', (t) => t.destinationChain),
    bigint('start_timestamp', (t) => t.startTimestamp),
    bigint('end_timestamp', (t) => t.endTimestamp),
    varchar('delegation_fee_percent', (t) => t.delegationFeePercent, 'decimal text as sent'),
    varchar('node_id', (t) => t.nodeId),
    varchar('subnet_id', (t) => t.subnetId),
    varchar('l1_validator_manager_blockchain_id', (t) => t.l1ValidatorManagerDetails?.blockchainId),
    varchar('l1_validator_manager_contract_address', (t) => t.l1ValidatorManagerDetails?.contractAddress),
    hugeint('estimated_reward', (t) => t.estimatedReward, 'nAVAX'),
    varchar('reward_tx_hash', (t) => t.rewardTxHash),
    varcharList('reward_addresses', (t) => t.rewardAddresses),
    varchar('memo', (t) => t.memo),
    varchar('staking_tx_hash', (t) => t.stakingTxHash),
    bigint('subnet_owner_locktime', (t) => t.subnetOwnershipInfo?.locktime, 'subnetOwnershipInfo.locktime'),
    integer('subnet_owner_threshold', (t) => t.subnetOwnershipInfo?.threshold, 'subnetOwnershipInfo.threshold'),
    varcharList('subnet_owner_addresses', (t) => t.subnetOwnershipInfo?.addresses, 'subnetOwnershipInfo.addresses'),
    varchar('bls_public_key', (t) => t.blsCredentials?.publicKey),
    varchar('bls_proof_of_possession', (t) => t.blsCredentials?.proofOfPossession),
    varchar('blockchain_name', (t) => t.blockchainInfo?.chainName, 'blockchainInfo.chainName'),
    varchar('blockchain_vm_id', (t) => t.blockchainInfo?.vmId, 'blockchainInfo.vmId'),
    json('genesis_data', (t) => (typeof t.blockchainInfo?.genesisData === 'string' ? null : t.blockchainInfo?.genesisData), 'blockchainInfo.genesisData when it is an object (EVM genesis)'),
    added(varchar('genesis_data_text', (t) => (typeof t.blockchainInfo?.genesisData === 'string' ? t.blockchainInfo.genesisData : null), 'blockchainInfo.genesisData when it is a string (encoded genesis of a non-EVM chain), exactly as sent')),
    varchar('chain_format', (t) => t.chainFormat, 'X-chain: linear or non-linear'),
    ubigint('block_height', (t) => t.blockHeight, 'X-chain linear / C-chain blockHeight as sent (also in block_number)'),
    json('vertices', (t) => t.vertices, 'X-chain non-linear: list of {hash, height, timestamp}'),
    json('evm_inputs', (t) => t.evmInputs, 'C-chain ExportTx: list of {fromAddress, asset, credentials}'),
    json('evm_outputs', (t) => t.evmOutputs, 'C-chain ImportTx: list of {toAddress, asset}'),
    json('asset_created', (t) => t.assetCreated, 'X-chain CreateAssetTx: XChainAssetDetails'),
    integer('consumed_utxo_count', (t) => t.consumedUtxos?.length, 'rows in pn_transaction_utxos with direction consumed'),
    integer('emitted_utxo_count', (t) => t.emittedUtxos?.length, 'rows in pn_transaction_utxos with direction emitted'),
  ],
  primaryKey: ['network', 'blockchain_id', 'tx_hash'],
  pruneBy: 'block_timestamp',
  export: pnExport,
  afterMerge: ['ops/propagateRewardTx.sql'],
});

/**
 * A table of one of a transaction's lists: rows start with the transaction's key and are keyed by it
 * and `key` (the entry's list and position).
 */
function txList<I>(
  name: string,
  comment: string,
  key: Column<Of<I>>[],
  columns: (Column<Of<I>> | readonly Column<Of<I>>[])[],
  more: Partial<Pick<TableDef, 'pruneBy' | 'afterMerge' | 'beforeMerge' | 'export'>> = {},
) {
  return defineTable<Of<I>>({
    name,
    comment,
    columns: [txKey((e) => e.parent), key, ...columns],
    primaryKey: ['network', 'blockchain_id', 'tx_hash', ...key.map((c) => c.name)],
    export: pnExport,
    ...more,
  });
}

/** The block time of an entry's transaction (the prune column of the list tables that have one). */
const entryTimestamp = <I>() => bigint<Of<I>>('block_timestamp', (e) => txTimestamp(e.parent));

export const pnTransactionUtxosTable = txList<Utxo>(
  'pn_transaction_utxos',
  'consumedUtxos and emittedUtxos of each primary-network transaction (every Utxo field).',
  [varchar('direction', (u) => u.tag, 'consumed or emitted'), integer('item_index', (u) => u.index, 'position in the list')],
  [
    within((u: Of<Utxo>) => u.item, utxoColumns(utxoTxHash)),
    // Schema version 9: the transaction's time (block_timestamp is the UTXO's), so a commit finds the stored rows of its
    // transactions in the row groups of their days, not by a scan of the whole history (bench/README.md, "Lookups by a random hash").
    added(
      bigint('tx_block_timestamp', (e) => txTimestamp(e.parent), "epoch seconds: the transaction's (pn_transactions.block_timestamp); block_timestamp is the UTXO's"),
      '(SELECT p.block_timestamp FROM pn_transactions AS p WHERE p.network = pn_transaction_utxos.network AND p.blockchain_id = pn_transaction_utxos.blockchain_id AND p.tx_hash = pn_transaction_utxos.tx_hash)',
    ),
  ],
  {
    pruneBy: 'tx_block_timestamp',
    // A consumed row is dated by its transaction (the spend), not by the UTXO's creation: a night's
    // transactions are that night's rows, in its month's partition of the lake.
    export: { ...pnExport, dateWhen: { column: 'direction', equals: 'consumed', dateFrom: 'consuming_block_timestamp' } },
    afterMerge: ['ops/propagateUtxoSpends.sql'],
  },
);

export const pnTransactionAmountsTable = txList<AssetAmount>(
  'pn_transaction_amounts',
  'AssetAmount lists of each primary-network transaction: kind = value, amount_burned, amount_staked, amount_l1_validator_balance_burned, amount_unlocked, amount_created.',
  [varchar('kind', (a) => a.tag), integer('item_index', (a) => a.index)],
  [entryTimestamp(), assetAmount('', (a: Of<AssetAmount>) => a.item)],
  { pruneBy: 'block_timestamp' },
);

export const pnL1ValidatorDetailsTable = txList<L1ValidatorDetail>(
  'pn_l1_validator_details',
  'l1ValidatorDetails of each primary-network transaction (L1ValidatorDetail; blsCredentials as JSON: its contents are not specified).',
  [integer('item_index', (d) => d.index)],
  [
    entryTimestamp(),
    within((d: Of<L1ValidatorDetail>) => d.item, [
      varchar('validation_id', (d) => d.validationId),
      varchar('validation_id_hex', (d) => d.validationIdHex),
      varchar('node_id', (d) => d.nodeId),
      varchar('subnet_id', (d) => d.subnetId),
      retyped(ubigint('weight', (d) => d.weight, 'uint64, exact (sent as a JSON number, above 2^53 included)')),
      hugeint('remaining_balance', (d) => d.remainingBalance, 'nAVAX (uint64, exact)'),
      hugeint('balance_change', (d) => d.balanceChange, 'nAVAX (uint64, exact)'),
      json('bls_credentials', (d) => d.blsCredentials),
    ]),
  ],
  { pruneBy: 'block_timestamp' },
);

export const pnAddressTransactionsTable = defineTable<Tx>({
  name: 'pn_address_transactions',
  comment: 'Which configured address set each primary-network transaction was listed for (link to pn_transactions).',
  columns: [txKey((t) => t), addressSet(), bigint('block_timestamp', txTimestamp)],
  primaryKey: ['network', 'blockchain_id', 'address_set', 'tx_hash'],
  pruneBy: 'block_timestamp',
  // Dated since schema version 5 (its column was there from the start; the layout was declared like evm_address_transactions').
  export: pnExport,
  // The set's new UTXOs and spends, from the transactions just linked to it (utxoDerivation.ts).
  afterMerge: ['ops/deriveUtxosFromTransactions.sql'],
});

/**
 * Chain-wide partitions walk the latest list down to the high-water mark; address partitions walk a
 * timestamp range (startTimestamp = last committed end).
 */
export const pnTransactions = defineStream({
  name: 'pn.transactions',
  mode: 'descending-until-known',
  modeOf: (p) => (p.params.addresses ? 'range' : 'descending-until-known'),
  partitions: (config) => [
    ...config.networks.flatMap((n) =>
      n.chains.map((chain) => ({
        stream: 'pn.transactions' as const,
        id: partitionId('pn.transactions', n.network, chain),
        network: n.network,
        chain,
        params: { network: n.network, blockchainId: chain },
      })),
    ),
    ...addressSetPartitions('pn.transactions', config).map((p) => ({ ...p, params: { ...p.params, startTimestamp: 0 } })),
  ],
  ...listWalk(endpoints.primaryNetwork.listTransactions, (p, s) => {
    const addresses = p.params.addresses as string[] | undefined;
    return {
      network: p.params.network as Network,
      blockchainId: String(p.params.blockchainId),
      addresses,
      // The timestamp filter needs an address filter (spec); chain-wide walks are bounded by the high-water mark instead.
      startTimestamp: addresses ? (s.from ?? Number(p.params.startTimestamp ?? 0)) : undefined,
    };
  }),
  sources: [
    rowsOf(pnTransactionsTable),
    childrenOf(pnTransactionUtxosTable, { consumed: (t) => t.consumedUtxos, emitted: (t) => t.emittedUtxos }),
    childrenOf(pnTransactionAmountsTable, {
      value: (t) => t.value,
      amount_burned: (t) => t.amountBurned,
      amount_staked: (t) => t.amountStaked,
      amount_l1_validator_balance_burned: (t) => t.amountL1ValidatorBalanceBurned,
      amount_unlocked: (t) => t.amountUnlocked,
      amount_created: (t) => t.amountCreated,
    }),
    childrenOf(pnL1ValidatorDetailsTable, { l1ValidatorDetails: (t) => t.l1ValidatorDetails }),
    // Address partitions also link each transaction to the address set it was listed for.
    rowsOf(pnAddressTransactionsTable, (x) => x.partition.params.addresses !== undefined),
  ],
  orderKey: (t) => {
    const ts = txTimestamp(t);
    return ts == null ? null : Number(ts);
  },
  identity: (t) => t.txHash,
});
