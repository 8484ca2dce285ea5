import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { drain, drainAll, startHarness, type Harness } from './harness.ts';

/**
 * pn.vertices_by_height (the stream CONTRIBUTING.md adds as its worked example): X-chain vertices
 * read height by height. Its ground truth is the other vertices endpoint: after a backfill the
 * warehouse's pn_vertices must equal what the latest-vertices list (pn.vertices) returns, row by row.
 */
const NET = 'fuji';
let h: Harness;
let own: PartitionSpec[];

beforeAll(async () => {
  h = await startHarness({ config: () => ({ streams: ['pn.vertices_by_height'], networks: [{ network: NET, chains: ['x-chain'] }] }) });
  own = await drainAll(h, h.config.streams, { mode: 'backfill' });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('pn.vertices_by_height', () => {
  it('is opt-in: a config that names no streams does not run it', async () => {
    const { DEFAULT_STREAMS, STREAM_NAMES } = await import('../../activities/streams/catalog.ts');
    expect(STREAM_NAMES).toContain('pn.vertices_by_height');
    expect(DEFAULT_STREAMS).not.toContain('pn.vertices_by_height');
  });

  it('a backfill stores exactly the vertices the latest list returns', async () => {
    expect(own.map((p) => p.id)).toEqual([`pn.vertices_by_height/${NET}/x-chain`]);
    const [{ n }] = await h.warehouse.query('SELECT count(*) AS n FROM pn_vertices');
    expect(Number(n)).toBeGreaterThan(0);
    const latestList = await h.core.planPartitions({ streams: ['pn.vertices'] });
    expect(latestList).toEqual([]); // not configured: its partitions are only the truth's
    const truthPartition: PartitionSpec = { stream: 'pn.vertices', id: 'truth', network: NET, chain: 'x-chain', params: { network: NET, blockchainId: 'x-chain' } };
    for (const c of await compareWithTruth(h.sim, h.warehouse, [truthPartition], { snapshotAt: 1_800_000_000 })) {
      expect({ table: c.table, lost: c.lost, duplicated: c.duplicated, examples: c.examples }).toEqual({ table: 'pn_vertices', lost: 0, duplicated: 0, examples: [] });
      expect(c.found).toBe(c.expected);
    }
  });

  it('a sync starts at the highest height stored: it reads only the top height again, and stays exact', async () => {
    const [partition] = own;
    const before = await h.core.readCheckpoint(partition.id);
    const [{ top }] = await h.warehouse.query('SELECT max(vertex_height)::BIGINT AS top FROM pn_vertices');
    expect(before?.cursor).toMatchObject({ next: Number(top) });
    const pages = await drain(h.core, partition, { mode: 'sync', runId: 'run-2' });
    // The top height (one page at this page size), then the empty height above it.
    expect(pages).toBe(2);
    const [{ n }] = await h.warehouse.query('SELECT count(*) AS n FROM pn_vertices');
    const [{ top: after }] = await h.warehouse.query('SELECT max(vertex_height)::BIGINT AS top FROM pn_vertices');
    expect([Number(n) > 0, after]).toEqual([true, top]);
  });
});
