import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { Vertex } from '../api/schemas/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { partitionId } from './partitionIds.ts';
import { pnVerticesTable } from './pnVertices.ts';
import { defineStream, rowsOf, type FetchState, type StreamClient, type StreamPage } from './streamDef.ts';

/**
 * X-chain vertices height by height (vertices:listByHeight), from the lowest height up: a range walk
 * whose next run starts at the highest height it has stored, so a DAG that grows is followed without
 * reading it again. The walk's page token is "<height>" or "<height>:<the list's own token>"; a
 * height without vertices is past the top and ends the walk.
 */
async function fetchHeightPage(client: StreamClient, p: PartitionSpec, s: FetchState): Promise<StreamPage<Vertex>> {
  const [at, token] = s.pageToken === null ? [String(s.from ?? 0)] : s.pageToken.split(/:(.*)/s);
  const height = Number(at);
  const r = await client.call(endpoints.primaryNetwork.listVerticesByHeight, {
    network: p.params.network as Network,
    blockchainId: String(p.params.blockchainId),
    vertexHeight: height,
    sortOrder: 'asc',
    pageSize: s.pageSize,
    pageToken: token || undefined,
  });
  const next = r.nextPageToken ? `${height}:${r.nextPageToken}` : r.vertices.length > 0 ? String(height + 1) : undefined;
  return { items: r.vertices, nextPageToken: next };
}

export const pnVerticesByHeight = defineStream({
  name: 'pn.vertices_by_height',
  mode: 'range',
  // The same vertices as pn.vertices, read another way: run when a config names it.
  optIn: true,
  walks: endpoints.primaryNetwork.listVerticesByHeight,
  fetchPage: fetchHeightPage,
  sources: [rowsOf(pnVerticesTable)],
  partitions: (config) =>
    config.networks
      .filter((n) => n.chains.includes('x-chain'))
      .map((n) => ({ stream: 'pn.vertices_by_height', id: partitionId('pn.vertices_by_height', n.network, 'x-chain'), network: n.network, chain: 'x-chain', params: { network: n.network, blockchainId: 'x-chain' } })),
  orderKey: (v) => (v.vertexHeight == null ? null : Number(v.vertexHeight)),
});
