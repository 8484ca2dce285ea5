import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { AssetAmount, PrimaryNetworkTransaction } from '../api/schemas/index.ts';
import type { ColumnDef, Row, TableDef } from '../warehouse/tableDef.ts';
import { added, assetAmount, col, retyped } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { addressSetPartitions } from './tables/pnPartitions.ts';
import { utxoColumns, utxoRow } from './tables/pnUtxo.ts';
import { huge, int, i64, json, str, strs, u64 } from './values.ts';

const txKey: ColumnDef[] = [col('network', 'VARCHAR'), col('blockchain_id', 'VARCHAR', 'chain alias as requested (p-chain, x-chain, c-chain)'), col('tx_hash', 'VARCHAR')];
const pnExport = { partitionBy: ['network', 'blockchain_id'], dateFrom: 'block_timestamp' };

export const pnTransactionsTable: TableDef = {
  name: 'pn_transactions',
  comment:
    'Primary-network transactions (PrimaryNetworkTransaction). Objects flattened (l1_validator_manager_*, subnet_owner_*, bls_*, blockchain_*); genesis data, X-chain vertices and C-chain evmInputs/evmOutputs/assetCreated as JSON. Lists in child tables: pn_transaction_utxos (consumed/emitted), pn_transaction_amounts (value, burned, staked, L1 balance burned, unlocked, created), pn_l1_validator_details.',
  columns: [
    ...txKey,
    col('tx_type', 'VARCHAR', 'PrimaryNetworkTxType as sent'),
    col('block_timestamp', 'BIGINT', 'epoch seconds (X-chain: timestamp)'),
    col('block_number', 'UBIGINT', 'X-chain linear and C-chain: blockHeight; NULL for non-linear X-chain transactions'),
    col('block_hash', 'VARCHAR'),
    col('source_chain', 'VARCHAR'),
    col('destination_chain', 'VARCHAR'),
    col('start_timestamp', 'BIGINT'),
    col('end_timestamp', 'BIGINT'),
    col('delegation_fee_percent', 'VARCHAR', 'decimal text as sent'),
    col('node_id', 'VARCHAR'),
    col('subnet_id', 'VARCHAR'),
    col('l1_validator_manager_blockchain_id', 'VARCHAR'),
    col('l1_validator_manager_contract_address', 'VARCHAR'),
    col('estimated_reward', 'HUGEINT', 'nAVAX'),
    col('reward_tx_hash', 'VARCHAR'),
    col('reward_addresses', 'VARCHAR[]'),
    col('memo', 'VARCHAR'),
    col('staking_tx_hash', 'VARCHAR'),
    col('subnet_owner_locktime', 'BIGINT', 'subnetOwnershipInfo.locktime'),
    col('subnet_owner_threshold', 'INTEGER', 'subnetOwnershipInfo.threshold'),
    col('subnet_owner_addresses', 'VARCHAR[]', 'subnetOwnershipInfo.addresses'),
    col('bls_public_key', 'VARCHAR'),
    col('bls_proof_of_possession', 'VARCHAR'),
    col('blockchain_name', 'VARCHAR', 'blockchainInfo.chainName'),
    col('blockchain_vm_id', 'VARCHAR', 'blockchainInfo.vmId'),
    col('genesis_data', 'JSON', 'blockchainInfo.genesisData when it is an object (EVM genesis)'),
    added(col('genesis_data_text', 'VARCHAR', 'blockchainInfo.genesisData when it is a string (encoded genesis of a non-EVM chain), exactly as sent')),
    col('chain_format', 'VARCHAR', 'X-chain: linear or non-linear'),
    col('block_height', 'UBIGINT', 'X-chain linear / C-chain blockHeight as sent (also in block_number)'),
    col('vertices', 'JSON', 'X-chain non-linear: list of {hash, height, timestamp}'),
    col('evm_inputs', 'JSON', 'C-chain ExportTx: list of {fromAddress, asset, credentials}'),
    col('evm_outputs', 'JSON', 'C-chain ImportTx: list of {toAddress, asset}'),
    col('asset_created', 'JSON', 'X-chain CreateAssetTx: XChainAssetDetails'),
    col('consumed_utxo_count', 'INTEGER', 'rows in pn_transaction_utxos with direction consumed'),
    col('emitted_utxo_count', 'INTEGER', 'rows in pn_transaction_utxos with direction emitted'),
  ],
  primaryKey: ['network', 'blockchain_id', 'tx_hash'],
  merge: 'upsert',
  pruneBy: 'block_timestamp',
  export: pnExport,
  afterMerge: ['ops/propagateRewardTx.sql'],
};

export const pnTransactionUtxosTable: TableDef = {
  name: 'pn_transaction_utxos',
  comment: 'consumedUtxos and emittedUtxos of each primary-network transaction (every Utxo field).',
  columns: [
    ...txKey,
    col('direction', 'VARCHAR', 'consumed or emitted'),
    col('item_index', 'INTEGER', 'position in the list'),
    ...utxoColumns.map((c) => (c.name === 'tx_hash' ? { ...c, name: 'utxo_tx_hash', comment: 'Utxo.txHash: the transaction that created the UTXO' } : c)),
  ],
  primaryKey: ['network', 'blockchain_id', 'tx_hash', 'direction', 'item_index'],
  merge: 'upsert',
  export: pnExport,
  afterMerge: ['ops/propagateUtxoSpends.sql'],
};

export const pnTransactionAmountsTable: TableDef = {
  name: 'pn_transaction_amounts',
  comment: 'AssetAmount lists of each primary-network transaction: kind = value, amount_burned, amount_staked, amount_l1_validator_balance_burned, amount_unlocked, amount_created.',
  columns: [...txKey, col('kind', 'VARCHAR'), col('item_index', 'INTEGER'), col('block_timestamp', 'BIGINT'), ...assetAmount('')],
  primaryKey: ['network', 'blockchain_id', 'tx_hash', 'kind', 'item_index'],
  merge: 'upsert',
  pruneBy: 'block_timestamp',
  export: pnExport,
};

export const pnL1ValidatorDetailsTable: TableDef = {
  name: 'pn_l1_validator_details',
  comment: 'l1ValidatorDetails of each primary-network transaction (L1ValidatorDetail; blsCredentials as JSON: its contents are not specified).',
  columns: [
    ...txKey,
    col('item_index', 'INTEGER'),
    col('block_timestamp', 'BIGINT'),
    col('validation_id', 'VARCHAR'),
    col('validation_id_hex', 'VARCHAR'),
    col('node_id', 'VARCHAR'),
    col('subnet_id', 'VARCHAR'),
    retyped(col('weight', 'UBIGINT', 'uint64, exact (sent as a JSON number, above 2^53 included)')),
    col('remaining_balance', 'HUGEINT', 'nAVAX (uint64, exact)'),
    col('balance_change', 'HUGEINT', 'nAVAX (uint64, exact)'),
    col('bls_credentials', 'JSON'),
  ],
  primaryKey: ['network', 'blockchain_id', 'tx_hash', 'item_index'],
  merge: 'upsert',
  pruneBy: 'block_timestamp',
  export: pnExport,
};

export const pnAddressTransactionsTable: TableDef = {
  name: 'pn_address_transactions',
  comment: 'Which configured address set each primary-network transaction was listed for (link to pn_transactions).',
  columns: [...txKey, col('address_set', 'VARCHAR', 'sorted configured addresses, comma-joined'), col('block_timestamp', 'BIGINT')],
  primaryKey: ['network', 'blockchain_id', 'address_set', 'tx_hash'],
  merge: 'upsert',
  pruneBy: 'block_timestamp',
  export: { partitionBy: ['network', 'blockchain_id'] },
};

const AMOUNT_LISTS = [
  ['value', 'value'],
  ['amount_burned', 'amountBurned'],
  ['amount_staked', 'amountStaked'],
  ['amount_l1_validator_balance_burned', 'amountL1ValidatorBalanceBurned'],
  ['amount_unlocked', 'amountUnlocked'],
  ['amount_created', 'amountCreated'],
] as const;

export function normalizePnTransactions(items: PrimaryNetworkTransaction[], network: string, blockchainId: string, addressSet?: string): Record<string, Row[]> {
  const out: Record<string, Row[]> = { pn_transactions: [], pn_transaction_utxos: [], pn_transaction_amounts: [], pn_l1_validator_details: [], pn_address_transactions: [] };
  for (const t of items) {
    const ts = i64(t.blockTimestamp ?? t.timestamp);
    out.pn_transactions.push({
      network,
      blockchain_id: blockchainId,
      tx_hash: t.txHash,
      tx_type: str(t.txType),
      block_timestamp: ts,
      block_number: u64(t.blockNumber ?? t.blockHeight),
      block_hash: str(t.blockHash),
      source_chain: str(t.sourceChain),
      destination_chain: str(t.destinationChain),
      start_timestamp: i64(t.startTimestamp),
      end_timestamp: i64(t.endTimestamp),
      delegation_fee_percent: str(t.delegationFeePercent),
      node_id: str(t.nodeId),
      subnet_id: str(t.subnetId),
      l1_validator_manager_blockchain_id: str(t.l1ValidatorManagerDetails?.blockchainId),
      l1_validator_manager_contract_address: str(t.l1ValidatorManagerDetails?.contractAddress),
      estimated_reward: huge(t.estimatedReward),
      reward_tx_hash: str(t.rewardTxHash),
      reward_addresses: strs(t.rewardAddresses),
      memo: str(t.memo),
      staking_tx_hash: str(t.stakingTxHash),
      subnet_owner_locktime: i64(t.subnetOwnershipInfo?.locktime),
      subnet_owner_threshold: int(t.subnetOwnershipInfo?.threshold),
      subnet_owner_addresses: strs(t.subnetOwnershipInfo?.addresses),
      bls_public_key: str(t.blsCredentials?.publicKey),
      bls_proof_of_possession: str(t.blsCredentials?.proofOfPossession),
      blockchain_name: str(t.blockchainInfo?.chainName),
      blockchain_vm_id: str(t.blockchainInfo?.vmId),
      genesis_data: typeof t.blockchainInfo?.genesisData === 'string' ? null : json(t.blockchainInfo?.genesisData),
      genesis_data_text: typeof t.blockchainInfo?.genesisData === 'string' ? t.blockchainInfo.genesisData : null,
      chain_format: str(t.chainFormat),
      block_height: u64(t.blockHeight),
      vertices: json(t.vertices),
      evm_inputs: json(t.evmInputs),
      evm_outputs: json(t.evmOutputs),
      asset_created: json(t.assetCreated),
      consumed_utxo_count: t.consumedUtxos?.length ?? null,
      emitted_utxo_count: t.emittedUtxos?.length ?? null,
    });
    for (const [direction, list] of [['consumed', t.consumedUtxos], ['emitted', t.emittedUtxos]] as const) {
      (list ?? []).forEach((u, i) => {
        const row = utxoRow(u, 'utxo_tx_hash');
        row.network = network;
        row.blockchain_id = blockchainId;
        row.tx_hash = t.txHash;
        row.direction = direction;
        row.item_index = i;
        out.pn_transaction_utxos.push(row);
      });
    }
    for (const [kind, field] of AMOUNT_LISTS) {
      ((t[field] as AssetAmount[] | null | undefined) ?? []).forEach((a, i) =>
        out.pn_transaction_amounts.push({
          network,
          blockchain_id: blockchainId,
          tx_hash: t.txHash,
          kind,
          item_index: i,
          block_timestamp: ts,
          asset_id: str(a.assetId),
          asset_name: str(a.name),
          asset_symbol: str(a.symbol),
          asset_denomination: int(a.denomination),
          asset_type: str(a.type),
          amount: huge(a.amount),
        }),
      );
    }
    (t.l1ValidatorDetails ?? []).forEach((d, i) =>
      out.pn_l1_validator_details.push({
        network,
        blockchain_id: blockchainId,
        tx_hash: t.txHash,
        item_index: i,
        block_timestamp: ts,
        validation_id: str(d.validationId),
        validation_id_hex: str(d.validationIdHex),
        node_id: str(d.nodeId),
        subnet_id: str(d.subnetId),
        weight: u64(d.weight),
        remaining_balance: huge(d.remainingBalance),
        balance_change: huge(d.balanceChange),
        bls_credentials: json(d.blsCredentials),
      }),
    );
    if (addressSet !== undefined) out.pn_address_transactions.push({ network, blockchain_id: blockchainId, tx_hash: t.txHash, address_set: addressSet, block_timestamp: ts });
  }
  return out;
}

/**
 * Chain-wide partitions walk the latest list down to the high-water mark; address partitions walk a
 * timestamp range (startTimestamp = last committed end).
 */
export const pnTransactions: StreamDef<PrimaryNetworkTransaction> = {
  name: 'pn.transactions',
  endpoint: 'GET /v1/networks/{network}/blockchains/{blockchainId}/transactions',
  mode: 'descending-until-known',
  modeOf: (p) => (p.params.addresses ? 'range' : 'descending-until-known'),
  walks: endpoints.primaryNetwork.listTransactions,
  tables: [pnTransactionsTable, pnTransactionUtxosTable, pnTransactionAmountsTable, pnL1ValidatorDetailsTable, pnAddressTransactionsTable],
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
  async fetchPage(client, p, s) {
    const addresses = p.params.addresses as string[] | undefined;
    const r = await client.call(endpoints.primaryNetwork.listTransactions, {
      network: p.params.network as Network,
      blockchainId: String(p.params.blockchainId),
      addresses,
      // The timestamp filter needs an address filter (spec); chain-wide walks are bounded by the high-water mark instead.
      startTimestamp: addresses ? (s.from ?? Number(p.params.startTimestamp ?? 0)) : undefined,
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    // Short pages while more remain are the server's (UTXO volume), counted apart in the CU optimum.
    return { items: r.transactions, nextPageToken: r.nextPageToken ?? undefined, cut: r.transactions.length < s.pageSize && !!r.nextPageToken };
  },
  normalize: (page, ctx) => {
    const addresses = ctx.partition.params.addresses as string[] | undefined;
    return normalizePnTransactions(page.items, String(ctx.partition.params.network), String(ctx.partition.params.blockchainId), addresses?.join(','));
  },
  orderKey: (t) => {
    const ts = t.blockTimestamp ?? t.timestamp;
    return ts == null ? null : Number(ts);
  },
};
