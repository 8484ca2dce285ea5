import { endpoints } from '../api/endpoints/index.ts';
import type { Block } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { added, col, uint256, uint256Row } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { int, i64, str, u64 } from './values.ts';

export const evmBlocksTable: TableDef = {
  name: 'evm_blocks',
  comment: 'EVM blocks (Block) of each configured chain, latest first; synced descending until the stored high-water mark.',
  columns: [
    col('chain_id', 'VARCHAR'),
    col('block_number', 'UBIGINT'),
    col('block_hash', 'VARCHAR'),
    col('block_timestamp', 'BIGINT', 'epoch seconds'),
    col('parent_hash', 'VARCHAR'),
    col('tx_count', 'INTEGER'),
    col('gas_used', 'UBIGINT'),
    col('gas_limit', 'UBIGINT'),
    ...uint256('base_fee', 'wei'),
    ...uint256('gas_cost', 'wei'),
    ...uint256('fees_spent', 'wei'),
    col('cumulative_transactions', 'UBIGINT'),
    added(col('block_timestamp_ms', 'BIGINT', 'epoch milliseconds (blockTimestampMilliseconds); NULL before the Granite upgrade')),
    added(col('block_min_delay_excess', 'UBIGINT', 'blockMinDelayExcess; NULL before the Granite upgrade')),
  ],
  primaryKey: ['chain_id', 'block_number'],
  merge: 'upsert',
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
};

export const evmBlocks: StreamDef<Block> = {
  name: 'evm.blocks',
  endpoint: 'GET /v1/chains/{chainId}/blocks',
  mode: 'descending-until-known',
  walks: endpoints.evm.listBlocks,
  tables: [evmBlocksTable],
  partitions: (config) => config.evmChains.map((c) => ({ stream: 'evm.blocks', id: partitionId('evm.blocks', c.chainId), chain: c.chainId, params: { chainId: c.chainId } })),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.evm.listBlocks, { chainId: String(p.params.chainId), pageSize: s.pageSize, pageToken: s.pageToken ?? undefined });
    return { items: r.blocks, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    evm_blocks: page.items.map((b) => ({
      chain_id: b.chainId ?? ctx.partition.chain ?? null,
      block_number: u64(b.blockNumber),
      block_hash: b.blockHash,
      block_timestamp: i64(b.blockTimestamp),
      parent_hash: str(b.parentHash),
      tx_count: int(b.txCount),
      gas_used: u64(b.gasUsed),
      gas_limit: u64(b.gasLimit),
      ...uint256Row('base_fee', b.baseFee),
      ...uint256Row('gas_cost', b.gasCost),
      ...uint256Row('fees_spent', b.feesSpent),
      cumulative_transactions: u64(b.cumulativeTransactions),
      block_timestamp_ms: i64(b.blockTimestampMilliseconds),
      block_min_delay_excess: u64(b.blockMinDelayExcess),
    })),
  }),
  orderKey: (b) => Number(b.blockNumber),
};
