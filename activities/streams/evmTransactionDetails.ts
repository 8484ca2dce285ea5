import { endpoints } from '../api/endpoints/index.ts';
import type { Erc721Token, Erc1155Token, TransactionDetail } from '../api/schemas/index.ts';
import type { ColumnDef, Row, TableDef } from '../warehouse/tableDef.ts';
import { col, erc20Token, erc20TokenRow, evmAddressInfo, evmAddressInfoRow, money, moneyRow, nftMetadata, nftMetadataRow, uint256, uint256Row } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { nativeTransactionColumns, nativeTransactionRow } from './tables/evmTransactions.ts';
import { bool, int, str, u64 } from './values.ts';
import { detailsUnchanged, fetchDetailPage } from './transactionDetailWalk.ts';

const key = (...extra: ColumnDef[]): ColumnDef[] => [col('chain_id', 'VARCHAR'), col('tx_hash', 'VARCHAR'), ...extra];
const childExport = { partitionBy: ['chain_id'] };

export const evmTransactionDetailsTable: TableDef = {
  name: 'evm_transaction_details',
  comment:
    'Single-transaction view (Transaction detail) of each configured tx hash: nativeTransaction columns plus input and EIP-1559 fees, and networkTokenDetails flattened to network_token_*. Lists go to evm_internal_transactions, evm_tx_erc20_transfers, evm_tx_erc721_transfers, evm_tx_erc1155_transfers; teleporterMessageInfo to evm_teleporter_messages.',
  columns: [
    ...nativeTransactionColumns,
    col('input', 'VARCHAR', 'calldata hex'),
    ...uint256('base_fee_per_gas', 'wei'),
    ...uint256('max_fee_per_gas', 'wei'),
    ...uint256('max_priority_fee_per_gas', 'wei'),
    col('network_token_name', 'VARCHAR'),
    col('network_token_symbol', 'VARCHAR'),
    col('network_token_decimals', 'INTEGER'),
    col('network_token_logo_uri', 'VARCHAR'),
    col('network_token_description', 'VARCHAR'),
    ...money('network_token_current_price'),
    ...money('network_token_historical_price'),
  ],
  primaryKey: ['chain_id', 'tx_hash'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
};

export const evmInternalTransactionsTable: TableDef = {
  name: 'evm_internal_transactions',
  comment: 'internalTransactions of a transaction detail; trace_index = position in the list.',
  columns: key(
    col('trace_index', 'INTEGER', 'position in internalTransactions'),
    ...evmAddressInfo('from'),
    ...evmAddressInfo('to'),
    col('internal_tx_type', 'VARCHAR', 'as sent'),
    ...uint256('value', 'wei'),
    col('is_reverted', 'BOOLEAN'),
    col('gas_used', 'UBIGINT'),
    col('gas_limit', 'UBIGINT'),
  ),
  primaryKey: ['chain_id', 'tx_hash', 'trace_index'],
  merge: 'upsert',
  export: childExport,
};

const transferBase = (): ColumnDef[] => [col('transfer_index', 'INTEGER', 'position in the list'), col('log_index', 'INTEGER'), ...evmAddressInfo('from'), ...evmAddressInfo('to')];

export const evmTxErc20TransfersTable: TableDef = {
  name: 'evm_tx_erc20_transfers',
  comment: 'erc20Transfers of a transaction detail; erc20Token flattened to token_*.',
  columns: key(...transferBase(), ...uint256('value', 'token smallest unit'), ...erc20Token('token')),
  primaryKey: ['chain_id', 'tx_hash', 'transfer_index'],
  merge: 'upsert',
  export: childExport,
};

const nftTokenColumns = (): ColumnDef[] => [
  col('token_address', 'VARCHAR'),
  col('token_id', 'VARCHAR', 'uint256 token id, exact text'),
  col('token_erc_type', 'VARCHAR'),
  col('token_uri', 'VARCHAR'),
  ...nftMetadata('token_metadata'),
];
const nftTokenRow = (t: Erc721Token | Erc1155Token | null | undefined): Row => ({
  token_address: str(t?.address),
  token_id: str(t?.tokenId),
  token_erc_type: str(t?.ercType),
  token_uri: str(t?.tokenUri),
  ...nftMetadataRow('token_metadata', t?.metadata),
});

export const evmTxErc721TransfersTable: TableDef = {
  name: 'evm_tx_erc721_transfers',
  comment: 'erc721Transfers of a transaction detail; erc721Token flattened to token_*.',
  columns: key(...transferBase(), ...nftTokenColumns(), col('token_name', 'VARCHAR'), col('token_symbol', 'VARCHAR'), col('token_owner_address', 'VARCHAR')),
  primaryKey: ['chain_id', 'tx_hash', 'transfer_index'],
  merge: 'upsert',
  export: childExport,
};

export const evmTxErc1155TransfersTable: TableDef = {
  name: 'evm_tx_erc1155_transfers',
  comment: 'erc1155Transfers of a transaction detail; erc1155Token flattened to token_*.',
  columns: key(...transferBase(), ...uint256('value', 'token units'), ...nftTokenColumns()),
  primaryKey: ['chain_id', 'tx_hash', 'transfer_index'],
  merge: 'upsert',
  export: childExport,
};

export const evmTeleporterMessagesTable: TableDef = {
  name: 'evm_teleporter_messages',
  comment: 'teleporterMessageInfo of a transaction detail (one per transaction when present).',
  columns: key(col('teleporter_message_id', 'VARCHAR'), col('direction', 'VARCHAR', 'as sent'), col('source_chain_id', 'VARCHAR'), col('destination_chain_id', 'VARCHAR')),
  primaryKey: ['chain_id', 'tx_hash'],
  merge: 'upsert',
  export: childExport,
};

type Item = { txHash: string; detail: TransactionDetail };

/** One get per configured hash; the page token is the index of the next hash. Details never change: a sync reads new hashes only. */
export const evmTransactionDetails: StreamDef<Item> = {
  name: 'evm.transaction_details',
  endpoint: 'GET /v1/chains/{chainId}/transactions/{txHash}',
  mode: 'snapshot-merge',
  walks: endpoints.evm.getTransaction,
  tables: [evmTransactionDetailsTable, evmInternalTransactionsTable, evmTxErc20TransfersTable, evmTxErc721TransfersTable, evmTxErc1155TransfersTable, evmTeleporterMessagesTable],
  partitions: (config) =>
    config.evmChains
      .filter((c) => c.transactions.length > 0)
      .map((c) => ({ stream: 'evm.transaction_details' as const, id: partitionId('evm.transaction_details', c.chainId), chain: c.chainId, params: { chainId: c.chainId, txHashes: c.transactions } })),
  // Details of mined transactions are final: a sync asks only for hashes no complete walk stored (transactionDetailWalk.ts).
  fetchPage: fetchDetailPage,
  unchanged: detailsUnchanged,
  normalize: (page, ctx) => {
    const out: Record<string, Row[]> = {
      evm_transaction_details: [],
      evm_internal_transactions: [],
      evm_tx_erc20_transfers: [],
      evm_tx_erc721_transfers: [],
      evm_tx_erc1155_transfers: [],
      evm_teleporter_messages: [],
    };
    for (const { detail: d } of page.items) {
      const n = d.nativeTransaction;
      const chainId = String(ctx.partition.params.chainId);
      const base = { chain_id: chainId, tx_hash: n.txHash };
      const nt = d.networkTokenDetails;
      out.evm_transaction_details.push({
        ...nativeTransactionRow(n, chainId),
        input: str(n.input),
        ...uint256Row('base_fee_per_gas', n.baseFeePerGas),
        ...uint256Row('max_fee_per_gas', n.maxFeePerGas),
        ...uint256Row('max_priority_fee_per_gas', n.maxPriorityFeePerGas),
        network_token_name: str(nt?.networkToken?.name),
        network_token_symbol: str(nt?.networkToken?.symbol),
        network_token_decimals: int(nt?.networkToken?.decimals),
        network_token_logo_uri: str(nt?.networkToken?.logoUri),
        network_token_description: str(nt?.networkToken?.description),
        ...moneyRow('network_token_current_price', nt?.currentPrice),
        ...moneyRow('network_token_historical_price', nt?.historicalPrice),
      });
      (d.internalTransactions ?? []).forEach((t, i) =>
        out.evm_internal_transactions.push({
          ...base,
          trace_index: i,
          ...evmAddressInfoRow('from', t.from),
          ...evmAddressInfoRow('to', t.to),
          internal_tx_type: str(t.internalTxType),
          ...uint256Row('value', t.value),
          is_reverted: bool(t.isReverted),
          gas_used: u64(t.gasUsed),
          gas_limit: u64(t.gasLimit),
        }),
      );
      const transfer = (t: { logIndex?: number | null; from?: unknown; to?: unknown }, i: number): Row => ({
        ...base,
        transfer_index: i,
        log_index: int(t.logIndex),
        ...evmAddressInfoRow('from', t.from as never),
        ...evmAddressInfoRow('to', t.to as never),
      });
      (d.erc20Transfers ?? []).forEach((t, i) => out.evm_tx_erc20_transfers.push({ ...transfer(t, i), ...uint256Row('value', t.value), ...erc20TokenRow('token', t.erc20Token) }));
      (d.erc721Transfers ?? []).forEach((t, i) =>
        out.evm_tx_erc721_transfers.push({
          ...transfer(t, i),
          ...nftTokenRow(t.erc721Token),
          token_name: str(t.erc721Token?.name),
          token_symbol: str(t.erc721Token?.symbol),
          token_owner_address: str(t.erc721Token?.ownerAddress),
        }),
      );
      (d.erc1155Transfers ?? []).forEach((t, i) => out.evm_tx_erc1155_transfers.push({ ...transfer(t, i), ...uint256Row('value', t.value), ...nftTokenRow(t.erc1155Token) }));
      const tm = d.teleporterMessageInfo;
      if (tm) {
        out.evm_teleporter_messages.push({
          ...base,
          teleporter_message_id: str(tm.teleporterMessageId),
          direction: str(tm.direction),
          source_chain_id: str(tm.sourceChainId),
          destination_chain_id: str(tm.destinationChainId),
        });
      }
    }
    return out;
  },
};
