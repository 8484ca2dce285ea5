import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { TableBatch } from '../../activities/warehouse/warehouse.ts';
import { drain, expectExact, startHarness, type Harness } from './harness.ts';

/**
 * metrics.holders (StreamDecl.sameWalks): a sync walk that lists, page for page, what the partition's
 * last complete walk listed gives its commit no rows (the open versions are those items already);
 * a walk that lists something else merges as before; a walk that follows one that committed pages
 * and never finished merges too (its digest does not describe the rows). Exact after every sync.
 */
let h: Harness;
/** Rows each holders commit gave the warehouse, per partition, since the last reset. */
const given = new Map<string, number>();

beforeAll(async () => {
  // Pages of 5: most tokens' holders take several pages.
  h = await startHarness({
    pageSize: 5,
    config: (sim) => {
      const d = sim.world.describe().evm as unknown as { chains: { chainId: string }[]; addresses: string[]; contracts: { chainId: string; address: string }[] };
      const chainId = d.chains[0].chainId;
      return {
        streams: ['metrics.holders'],
        evmChains: [{ chainId, addresses: d.addresses.slice(0, 3), contracts: d.contracts.filter((c) => c.chainId === chainId).map((c) => c.address), holderThreshold: '0' }],
      };
    },
  });
  // A spy on the real warehouse: what each commit of a holders partition was given.
  const commit = h.warehouse.commitBatch.bind(h.warehouse);
  h.warehouse.commitBatch = (tables: TableBatch[], checkpoint, run, walk) => {
    if (checkpoint.stream === 'metrics.holders') given.set(checkpoint.partitionId, (given.get(checkpoint.partitionId) ?? 0) + tables.reduce((n, t) => n + t.rows, 0));
    return commit(tables, checkpoint, run, walk);
  };
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const runAll = async (partitions: PartitionSpec[], runId: string, mode: 'backfill' | 'sync', snapshotAt: number) => {
  given.clear();
  for (const p of partitions) await drain(h.core, p, { runId, mode, snapshotAt });
};
const walks = async (snapshotAt: number) => Number((await h.warehouse.query(`SELECT count(*) AS n FROM _glacier_snapshot_walks WHERE stream = 'metrics.holders' AND snapshot_at = ${snapshotAt}`))[0].n);

describe('snapshot walks that list what the last one did', () => {
  it('write no row, record the walk, and stay exact; a changed list or a walk after an unfinished one merges', async () => {
    const partitions = await h.core.planPartitions({ streams: ['metrics.holders'] });
    expect(partitions.length).toBeGreaterThan(1);
    await runAll(partitions, 'b', 'backfill', 1);
    await expectExact(h, partitions, 1);
    const holders = [...given.values()].reduce((a, b) => a + b, 0);
    expect(holders).toBeGreaterThan(0);

    // Nothing changed: every partition's walk gives no row, and every walk is recorded.
    await runAll(partitions, 's1', 'sync', 2);
    expect([...given.values()].every((n) => n === 0)).toBe(true);
    expect(await walks(2)).toBe(partitions.length);
    await expectExact(h, partitions, 2);

    // The world grows until some balance moves: the partitions whose list changed merge, exact.
    let merged = 0;
    for (let i = 0; i < 10 && merged === 0; i++) {
      h.sim.advance(50);
      await runAll(partitions, `g${i}`, 'sync', 10 + i);
      await expectExact(h, partitions, 10 + i);
      merged = [...given.values()].filter((n) => n > 0).length;
    }
    expect(merged).toBeGreaterThan(0);

    // A walk that commits a page and never finishes (a crash): the next run's walk merges its rows,
    // even though it lists what the last complete walk listed.
    const multi = partitions.filter((p) => p.params.address !== undefined);
    for (const p of multi) await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: 'crash', snapshotAt: 30 });
    const unfinished = [];
    for (const p of multi) if (!(await h.core.readCheckpoint(p.id))!.complete) unfinished.push(p.id);
    expect(unfinished.length).toBeGreaterThan(0);
    await runAll(partitions, 'after-crash', 'sync', 31);
    for (const id of unfinished) expect(given.get(id), id).toBeGreaterThan(0);
    await expectExact(h, partitions, 31);
    // And the run after that, with nothing changed, writes nothing again.
    await runAll(partitions, 'quiet', 'sync', 32);
    expect([...given.values()].every((n) => n === 0)).toBe(true);
    await expectExact(h, partitions, 32);
  }, 300_000);
});
