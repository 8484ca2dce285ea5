import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { Vertex } from '../api/schemas/index.ts';
import { bigint, defineTable, integer, ubigint, varchar, varcharList } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, listWalk, rowsOf } from './streamDef.ts';
import { chainKey } from './shared/pnPartitions.ts';

export const pnVerticesTable = defineTable<Vertex>({
  name: 'pn_vertices',
  comment: 'X-chain vertices (Vertex), latest first; parentHashes and transactions as LIST columns.',
  columns: [
    chainKey('x-chain'),
    varchar('vertex_hash', (v) => v.vertexHash),
    varcharList('parent_hashes', (v) => v.parentHashes),
    ubigint('vertex_height', (v) => v.vertexHeight),
    integer('vertex_index', (v) => v.vertexIndex),
    bigint('vertex_timestamp', (v) => v.vertexTimestamp, 'epoch seconds'),
    integer('tx_count', (v) => v.txCount),
    varcharList('transactions', (v) => v.transactions, 'tx ids'),
    integer('vertex_size_bytes', (v) => v.vertexSizeBytes),
  ],
  primaryKey: ['network', 'blockchain_id', 'vertex_hash'],
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'vertex_timestamp' },
});

export const pnVertices = defineStream({
  name: 'pn.vertices',
  mode: 'descending-until-known',
  ...listWalk(endpoints.primaryNetwork.listVertices, (p) => ({ network: p.params.network as Network, blockchainId: String(p.params.blockchainId) })),
  sources: [rowsOf(pnVerticesTable)],
  partitions: (config) =>
    config.networks
      .filter((n) => n.chains.includes('x-chain'))
      .map((n) => ({ stream: 'pn.vertices' as const, id: partitionId('pn.vertices', n.network, 'x-chain'), network: n.network, chain: 'x-chain', params: { network: n.network, blockchainId: 'x-chain' } })),
  orderKey: (v) => (v.vertexHeight == null ? null : Number(v.vertexHeight)),
  identity: (v) => v.vertexHash,
});
