import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncCore } from '../../activities/sync/index.ts';
import { tableByName } from '../../activities/streams/catalog.ts';
import { createLogger } from '../../worker/logger.ts';
import { firstChainId, startHarness, truth, type Harness } from './harness.ts';

/**
 * A batch never commits more than the commit size allows (COMMIT_MAX_CELLS; lowered here): a batch of
 * many pages commits as it goes, each commit with the walk state after its last page, and the result
 * is the same warehouse as committing the whole batch at once.
 */

let h: Harness;
const blockCells = tableByName('evm_blocks')!.columns.length;

beforeAll(async () => {
  h = await startHarness({ config: (sim) => ({ streams: ['evm.blocks'], evmChains: [{ chainId: firstChainId(sim) }] }), pageSize: 10 });
});

afterAll(async () => {
  await h?.close();
});

describe('commit size', () => {
  it('a batch past the cell budget commits every few pages, and the warehouse equals the list', async () => {
    // Three pages of ten blocks fill the budget: a 7-page batch commits after pages 3 and 6, then at its end.
    const core = createSyncCore({ client: h.client, warehouse: h.warehouse, config: h.config, logger: createLogger({ level: 'silent' }), commitMaxCells: 30 * blockCells });
    const [partition] = await core.planPartitions({});
    const commits: number[] = [];
    h.warehouse.faultHook = async (step) => {
      if (step === 'after-commit') commits.push((await h.warehouse.readCheckpoint(partition.id))!.pages);
    };
    const first = await core.syncBatch({ partition, maxPages: 7, mode: 'backfill', runId: 'r', snapshotAt: 1 });
    expect(first.pages).toBe(7);
    expect(commits).toEqual([3, 6, 7]);
    const checkpoint = (await h.warehouse.readCheckpoint(partition.id))!;
    expect(checkpoint.pages).toBe(7);
    expect(checkpoint.rows).toBe(70);
    h.warehouse.faultHook = undefined;
    for (let i = 0; i < 1000 && !(await core.syncBatch({ partition, maxPages: 7, mode: 'backfill', runId: 'r', snapshotAt: 1 })).done; i++);
    const blocks = await truth(h.sim, `/v1/chains/${String(partition.params.chainId)}/blocks`);
    const stored = await h.warehouse.query('SELECT block_hash FROM evm_blocks ORDER BY block_number DESC');
    expect(stored.map((r) => r.block_hash)).toEqual(blocks.map((b) => b.blockHash));
  });
});

describe('fatal DuckDB error', () => {
  it('opens the file again: the failed batch is retried from the durable checkpoint and nothing is lost or doubled', async () => {
    const [partition] = await h.core.planPartitions({});
    const before = (await h.warehouse.readCheckpoint(partition.id))!;
    // What DuckDB raises after a checkpoint fails to pin memory: the database is invalidated.
    h.warehouse.faultHook = (step) => {
      if (step === 'before-commit') throw new Error('FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.');
    };
    await expect(h.core.syncBatch({ partition, maxPages: 2, mode: 'sync', runId: 'r2', snapshotAt: 2 })).rejects.toThrow(/invalidated/);
    h.warehouse.faultHook = undefined;
    expect(h.warehouse.reopened).toBe(1);
    // The reopened file still answers, with the checkpoint as it was before the failed commit.
    expect((await h.warehouse.readCheckpoint(partition.id))!.pages).toBe(before.pages);
    const [{ n }] = await h.warehouse.query('SELECT count(*) AS n FROM evm_blocks');
    const blocks = await truth(h.sim, `/v1/chains/${String(partition.params.chainId)}/blocks`);
    expect(Number(n)).toBe(blocks.length);
    const again = await h.core.syncBatch({ partition, maxPages: 2, mode: 'sync', runId: 'r2', snapshotAt: 2 });
    expect(again.done).toBe(true);
    const stored = await h.warehouse.query('SELECT block_hash FROM evm_blocks ORDER BY block_number DESC');
    expect(stored.map((r) => r.block_hash)).toEqual(blocks.map((b) => b.blockHash));
  });

  it('is told apart from other errors', async () => {
    const { isFatal } = await import('../../activities/warehouse/warehouse.ts');
    expect(isFatal(new Error('FATAL Error: Failed to create checkpoint because of error: failed to pin block'))).toBe(true);
    expect(isFatal(new Error('Constraint Error: duplicate key'))).toBe(false);
  });
});
