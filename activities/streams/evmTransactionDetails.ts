import { z } from 'zod';
import { endpoints } from '../api/endpoints/index.ts';
import { TransactionDetail as TransactionDetailSchema } from '../api/schemas/index.ts';
import type {
  Erc1155Token,
  Erc1155TransferDetail,
  Erc20TransferDetail,
  Erc721Token,
  Erc721TransferDetail,
  InternalTransaction,
  TeleporterMessageInfo,
  TransactionDetail,
} from '../api/schemas/index.ts';
import {
  added,
  bigint,
  boolean,
  defineTable,
  erc20Token,
  evmAddressInfo,
  integer,
  money,
  nftMetadata,
  uint256,
  ubigint,
  varchar,
  within,
  type Column,
} from './columns.ts';
import { childrenOf, defineStream, rowsOf, type Child } from './streamDef.ts';
import { detailCursor, detailsUnchanged, fetchDetailPage, type DetailCursor, type DetailItem, type DetailMarks } from './transactionDetailWalk.ts';
import { chainListPartitions } from './shared/blockRanges.ts';
import { chainColumn, chainIdComment, nativeTransactionColumns } from './shared/evmTransactions.ts';

type Item = DetailItem;
type NetworkToken = NonNullable<TransactionDetail['networkTokenDetails']>['networkToken'];
type Of<I> = Child<Item, I>;

/**
 * A table of one list of a detail: its rows start with the parent's chain_id and tx_hash and are
 * keyed by them and `index` (the entry's position, or nothing for a one-per-transaction entry).
 */
function detailChild<I>(name: string, comment: string, index: Column<Of<I>>[], columns: (Column<Of<I>> | readonly Column<Of<I>>[])[]) {
  return defineTable<Of<I>>({
    name,
    comment,
    columns: [
      chainColumn(),
      varchar('tx_hash', (c) => c.parent.detail.nativeTransaction.txHash),
      index,
      ...columns,
      // Schema version 5: the day of the lake partition, so a night rewrites the days it added to, not the chain's whole table.
      added(
        bigint('block_timestamp', (c) => c.parent.detail.nativeTransaction.blockTimestamp, "epoch seconds: the transaction's (evm_transaction_details.block_timestamp)"),
        `(SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = ${name}.chain_id AND p.tx_hash = ${name}.tx_hash)`,
      ),
    ],
    primaryKey: ['chain_id', 'tx_hash', ...index.map((c) => c.name)],
    export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
  });
}

export const evmTransactionDetailsTable = defineTable<Item>({
  name: 'evm_transaction_details',
  comment:
    'Single-transaction view (Transaction detail) of each configured tx hash: nativeTransaction columns plus input and EIP-1559 fees, and networkTokenDetails flattened to network_token_*. Lists go to evm_internal_transactions, evm_tx_erc20_transfers, evm_tx_erc721_transfers, evm_tx_erc1155_transfers; teleporterMessageInfo to evm_teleporter_messages.',
  columns: [
    chainColumn(chainIdComment),
    within((i) => i.detail.nativeTransaction, nativeTransactionColumns),
    varchar('input', (i) => i.detail.nativeTransaction.input, 'calldata hex'),
    uint256('base_fee_per_gas', (i) => i.detail.nativeTransaction.baseFeePerGas, 'wei'),
    uint256('max_fee_per_gas', (i) => i.detail.nativeTransaction.maxFeePerGas, 'wei'),
    uint256('max_priority_fee_per_gas', (i) => i.detail.nativeTransaction.maxPriorityFeePerGas, 'wei'),
    within<Item, NetworkToken>((i) => i.detail.networkTokenDetails?.networkToken, [
      varchar('network_token_name', (t) => t?.name),
      varchar('network_token_symbol', (t) => t?.symbol),
      integer('network_token_decimals', (t) => t?.decimals),
      varchar('network_token_logo_uri', (t) => t?.logoUri),
      varchar('network_token_description', (t) => t?.description),
    ]),
    money('network_token_current_price', (i) => i.detail.networkTokenDetails?.currentPrice),
    money('network_token_historical_price', (i) => i.detail.networkTokenDetails?.historicalPrice),
  ],
  primaryKey: ['chain_id', 'tx_hash'],
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
});

const internalTransactionColumns: Column<InternalTransaction>[] = [
  ...evmAddressInfo<InternalTransaction>('from', (t) => t.from),
  ...evmAddressInfo<InternalTransaction>('to', (t) => t.to),
  varchar('internal_tx_type', (t) => t.internalTxType, 'as sent'),
  ...uint256<InternalTransaction>('value', (t) => t.value, 'wei'),
  boolean('is_reverted', (t) => t.isReverted),
  ubigint('gas_used', (t) => t.gasUsed),
  ubigint('gas_limit', (t) => t.gasLimit),
];

export const evmInternalTransactionsTable = detailChild<InternalTransaction>(
  'evm_internal_transactions',
  'internalTransactions of a transaction detail; trace_index = position in the list.',
  [integer('trace_index', (c) => c.index, 'position in internalTransactions')],
  [within((c: Of<InternalTransaction>) => c.item, internalTransactionColumns)],
);

/** A transfer list of a detail: keyed by transfer_index; log index, from and to, then the standard's own columns. */
type Transfer = Erc20TransferDetail | Erc721TransferDetail | Erc1155TransferDetail;
const transferTable = <I extends Transfer>(name: string, comment: string, columns: (Column<Of<I>> | readonly Column<Of<I>>[])[]) =>
  detailChild<I>(name, comment, [integer('transfer_index', (c) => c.index, 'position in the list')], [
    integer('log_index', (c) => c.item.logIndex),
    evmAddressInfo('from', (c) => c.item.from),
    evmAddressInfo('to', (c) => c.item.to),
    ...columns,
  ]);

/** An ERC-721 or ERC-1155 token object of a transfer, flattened to token_*. */
const nftToken = <I>(read: (c: Of<I>) => Erc721Token | Erc1155Token | null | undefined): Column<Of<I>>[] =>
  within(read, [
    varchar('token_address', (t) => t?.address),
    varchar('token_id', (t) => t?.tokenId, 'uint256 token id, exact text'),
    varchar('token_erc_type', (t) => t?.ercType),
    varchar('token_uri', (t) => t?.tokenUri),
    ...nftMetadata<Erc721Token | Erc1155Token | null | undefined>('token_metadata', (t) => t?.metadata),
  ]);

export const evmTxErc20TransfersTable = transferTable<Erc20TransferDetail>('evm_tx_erc20_transfers', 'erc20Transfers of a transaction detail; erc20Token flattened to token_*.', [
  uint256('value', (c) => c.item.value, 'token smallest unit'),
  erc20Token('token', (c) => c.item.erc20Token),
]);

export const evmTxErc721TransfersTable = transferTable<Erc721TransferDetail>('evm_tx_erc721_transfers', 'erc721Transfers of a transaction detail; erc721Token flattened to token_*.', [
  nftToken((c) => c.item.erc721Token),
  varchar('token_name', (c) => c.item.erc721Token?.name),
  varchar('token_symbol', (c) => c.item.erc721Token?.symbol),
  varchar('token_owner_address', (c) => c.item.erc721Token?.ownerAddress),
]);

export const evmTxErc1155TransfersTable = transferTable<Erc1155TransferDetail>('evm_tx_erc1155_transfers', 'erc1155Transfers of a transaction detail; erc1155Token flattened to token_*.', [
  uint256('value', (c) => c.item.value, 'token units'),
  nftToken((c) => c.item.erc1155Token),
]);

export const evmTeleporterMessagesTable = detailChild<TeleporterMessageInfo>('evm_teleporter_messages', 'teleporterMessageInfo of a transaction detail (one per transaction when present).', [], [
  varchar('teleporter_message_id', (c) => c.item.teleporterMessageId),
  varchar('direction', (c) => c.item.direction, 'as sent'),
  varchar('source_chain_id', (c) => c.item.sourceChainId),
  varchar('destination_chain_id', (c) => c.item.destinationChainId),
]);

/** One get per configured hash; the page token is the index of the next hash. Details never change: a sync reads new hashes only. */
export const evmTransactionDetails = defineStream<Item, DetailCursor, DetailMarks>({
  name: 'evm.transaction_details',
  mode: 'snapshot-merge',
  walks: endpoints.evm.getTransaction,
  // Details of mined transactions are final: a sync asks only for hashes no complete walk stored (transactionDetailWalk.ts).
  fetchPage: fetchDetailPage,
  cursor: detailCursor,
  items: z.looseObject({ txHash: z.string(), detail: TransactionDetailSchema }),
  unchanged: detailsUnchanged,
  sources: [
    rowsOf(evmTransactionDetailsTable),
    childrenOf(evmInternalTransactionsTable, { internal: (i) => i.detail.internalTransactions }),
    childrenOf(evmTxErc20TransfersTable, { erc20: (i) => i.detail.erc20Transfers }),
    childrenOf(evmTxErc721TransfersTable, { erc721: (i) => i.detail.erc721Transfers }),
    childrenOf(evmTxErc1155TransfersTable, { erc1155: (i) => i.detail.erc1155Transfers }),
    childrenOf(evmTeleporterMessagesTable, { teleporter: (i) => (i.detail.teleporterMessageInfo ? [i.detail.teleporterMessageInfo] : []) }),
  ],
  partitions: (config) => chainListPartitions('evm.transaction_details', config, 'txHashes', (c) => c.transactions),
});
