import { endpoints } from '../api/endpoints/index.ts';
import type { Block } from '../api/schemas/index.ts';
import { added, bigint, defineTable, integer, uint256, ubigint, varchar } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';

export const evmBlocksTable = defineTable<Block>({
  name: 'evm_blocks',
  comment: 'EVM blocks (Block) of each configured chain, latest first; synced descending until the stored high-water mark.',
  columns: [
    varchar('chain_id', (b, x) => b.chainId ?? x.partition.chain),
    ubigint('block_number', (b) => b.blockNumber),
    varchar('block_hash', (b) => b.blockHash),
    bigint('block_timestamp', (b) => b.blockTimestamp, 'epoch seconds'),
    varchar('parent_hash', (b) => b.parentHash),
    integer('tx_count', (b) => b.txCount),
    ubigint('gas_used', (b) => b.gasUsed),
    ubigint('gas_limit', (b) => b.gasLimit),
    uint256('base_fee', (b) => b.baseFee, 'wei'),
    uint256('gas_cost', (b) => b.gasCost, 'wei'),
    uint256('fees_spent', (b) => b.feesSpent, 'wei'),
    ubigint('cumulative_transactions', (b) => b.cumulativeTransactions),
    added(bigint('block_timestamp_ms', (b) => b.blockTimestampMilliseconds, 'epoch milliseconds (blockTimestampMilliseconds); NULL before the Granite upgrade')),
    added(ubigint('block_min_delay_excess', (b) => b.blockMinDelayExcess, 'blockMinDelayExcess; NULL before the Granite upgrade')),
  ],
  primaryKey: ['chain_id', 'block_number'],
  export: { partitionBy: ['chain_id'], dateFrom: 'block_timestamp' },
});

export const evmBlocks = defineStream({
  name: 'evm.blocks',
  mode: 'descending-until-known',
  ...listWalk(endpoints.evm.listBlocks, (p) => ({ chainId: String(p.params.chainId) })),
  sources: [rowsOf(evmBlocksTable)],
  partitions: (config) => config.evmChains.map((c) => ({ stream: 'evm.blocks', id: partitionId('evm.blocks', c.chainId), chain: c.chainId, params: { chainId: c.chainId } })),
  orderKey: (b) => Number(b.blockNumber),
  identity: (b) => b.blockHash,
});
