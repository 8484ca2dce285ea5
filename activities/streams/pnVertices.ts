import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { Vertex } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { col } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { int, i64, strs, u64 } from './values.ts';

export const pnVerticesTable: TableDef = {
  name: 'pn_vertices',
  comment: 'X-chain vertices (Vertex), latest first; parentHashes and transactions as LIST columns.',
  columns: [
    col('network', 'VARCHAR'),
    col('blockchain_id', 'VARCHAR', 'x-chain'),
    col('vertex_hash', 'VARCHAR'),
    col('parent_hashes', 'VARCHAR[]'),
    col('vertex_height', 'UBIGINT'),
    col('vertex_index', 'INTEGER'),
    col('vertex_timestamp', 'BIGINT', 'epoch seconds'),
    col('tx_count', 'INTEGER'),
    col('transactions', 'VARCHAR[]', 'tx ids'),
    col('vertex_size_bytes', 'INTEGER'),
  ],
  primaryKey: ['network', 'blockchain_id', 'vertex_hash'],
  merge: 'upsert',
  export: { partitionBy: ['network', 'blockchain_id'], dateFrom: 'vertex_timestamp' },
};

export const pnVertices: StreamDef<Vertex> = {
  name: 'pn.vertices',
  endpoint: 'GET /v1/networks/{network}/blockchains/{blockchainId}/vertices',
  mode: 'descending-until-known',
  walks: endpoints.primaryNetwork.listVertices,
  tables: [pnVerticesTable],
  partitions: (config) =>
    config.networks
      .filter((n) => n.chains.includes('x-chain'))
      .map((n) => ({ stream: 'pn.vertices' as const, id: partitionId('pn.vertices', n.network, 'x-chain'), network: n.network, chain: 'x-chain', params: { network: n.network, blockchainId: 'x-chain' } })),
  async fetchPage(client, p, s) {
    const r = await client.call(endpoints.primaryNetwork.listVertices, {
      network: p.params.network as Network,
      blockchainId: String(p.params.blockchainId),
      pageSize: s.pageSize,
      pageToken: s.pageToken ?? undefined,
    });
    return { items: r.vertices, nextPageToken: r.nextPageToken ?? undefined };
  },
  normalize: (page, ctx) => ({
    pn_vertices: page.items.map((v) => ({
      network: String(ctx.partition.params.network),
      blockchain_id: String(ctx.partition.params.blockchainId),
      vertex_hash: v.vertexHash,
      parent_hashes: strs(v.parentHashes),
      vertex_height: u64(v.vertexHeight),
      vertex_index: int(v.vertexIndex),
      vertex_timestamp: i64(v.vertexTimestamp),
      tx_count: int(v.txCount),
      transactions: strs(v.transactions),
      vertex_size_bytes: int(v.vertexSizeBytes),
    })),
  }),
  orderKey: (v) => (v.vertexHeight == null ? null : Number(v.vertexHeight)),
};
