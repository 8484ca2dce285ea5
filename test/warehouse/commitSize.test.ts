import { mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncCore } from '../../activities/sync/index.ts';
import { tableByName } from '../../activities/streams/catalog.ts';
import { createLogger } from '../../worker/logger.ts';
import { isFatal, isOutOfMemory } from '../../activities/warehouse/warehouse.ts';
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
    expect(isFatal(new Error('FATAL Error: Failed to create checkpoint because of error: failed to pin block'))).toBe(true);
    expect(isFatal(new Error('Constraint Error: duplicate key'))).toBe(false);
    expect(isOutOfMemory(new Error('Out of Memory Error: failed to pin block of size 256.0 KiB (60.8 MiB/61.0 MiB used)'))).toBe(true);
    expect(isOutOfMemory(new Error('FATAL Error: Failed to create checkpoint because of error: failed to pin block'))).toBe(false);
  });
});

describe('out of buffer memory in a commit', () => {
  it('checkpoints and commits again once: the batch lands whole, once, with its checkpoint', async () => {
    const [partition] = await h.core.planPartitions({});
    h.sim.advance(30);
    const before = (await h.warehouse.readCheckpoint(partition.id))!;
    const relieved = h.warehouse.relieved;
    let failures = 0;
    // What DuckDB raises when a merge cannot pin a block under warehouse.memoryLimit (the transaction is rolled back).
    h.warehouse.faultHook = (step) => {
      if (step === 'before-commit' && failures++ === 0) throw new Error('Out of Memory Error: failed to pin block of size 256.0 KiB (60.8 MiB/61.0 MiB used)');
    };
    const r = await h.core.syncBatch({ partition, maxPages: 50, mode: 'sync', runId: 'r3', snapshotAt: 3 });
    h.warehouse.faultHook = undefined;
    expect(failures).toBe(2);
    expect(h.warehouse.relieved).toBe(relieved + 1);
    expect(r.done).toBe(true);
    expect(r.rows).toBeGreaterThan(0);
    const after = (await h.warehouse.readCheckpoint(partition.id))!;
    expect(after.rows).toBe(before.rows + r.rows);
    const blocks = await truth(h.sim, `/v1/chains/${String(partition.params.chainId)}/blocks`);
    const stored = await h.warehouse.query('SELECT block_hash FROM evm_blocks ORDER BY block_number DESC');
    expect(stored.map((x) => x.block_hash)).toEqual(blocks.map((b) => b.blockHash));
    // The run's totals count the batch once.
    const [{ rows }] = await h.warehouse.query(`SELECT sum(rows) AS rows FROM _glacier_sync_runs WHERE run_id = 'r3'`);
    expect(Number(rows)).toBe(r.rows);
  });

  it('a second failure after the checkpoint fails the batch, with nothing of it stored', async () => {
    const [partition] = await h.core.planPartitions({});
    h.sim.advance(10);
    const before = (await h.warehouse.readCheckpoint(partition.id))!;
    const [{ n: countBefore }] = await h.warehouse.query('SELECT count(*) AS n FROM evm_blocks');
    h.warehouse.faultHook = (step) => {
      if (step === 'before-commit') throw new Error('Out of Memory Error: could not allocate block of size 256.0 KiB');
    };
    const requestsBefore = h.sim.stats().requests;
    await expect(h.core.syncBatch({ partition, maxPages: 50, mode: 'sync', runId: 'r4', snapshotAt: 4 })).rejects.toThrow(/Out of Memory/);
    h.warehouse.faultHook = undefined;
    // The requests the failed batch made stay in the run's accounting (the server charged them), with no pages or rows.
    const charged = h.sim.stats().requests - requestsBefore;
    expect(charged).toBeGreaterThan(0);
    const [run] = await h.warehouse.query(`SELECT requests, pages, rows, done FROM _glacier_sync_runs WHERE run_id = 'r4'`);
    expect({ requests: Number(run.requests), pages: Number(run.pages), rows: Number(run.rows), done: run.done }).toEqual({ requests: charged, pages: 0, rows: 0, done: false });
    expect((await h.warehouse.readCheckpoint(partition.id))!.pages).toBe(before.pages);
    const [{ n: countAfter }] = await h.warehouse.query('SELECT count(*) AS n FROM evm_blocks');
    expect(countAfter).toBe(countBefore);
  });
});

describe('a file that cannot be opened again after a fatal error', () => {
  it('fails the batch when the file cannot be opened again, and the next write opens it', async () => {
    const [partition] = await h.core.planPartitions({});
    const before = (await h.warehouse.readCheckpoint(partition.id))!;
    const path = h.warehouse.path;
    const reopened = h.warehouse.reopened;
    // The fatal error comes while the file is out of reach (a directory in its place): opening it again fails.
    h.warehouse.faultHook = (step) => {
      if (step !== 'before-commit') return;
      renameSync(path, `${path}.away`);
      mkdirSync(path);
      throw new Error('FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.');
    };
    // Rejected, not left waiting (a batch whose commit never settles holds its activity until it times out).
    await expect(h.core.syncBatch({ partition, maxPages: 2, mode: 'sync', runId: 'r5', snapshotAt: 5 })).rejects.toThrow(/could not be opened again after a fatal error \(FATAL Error/);
    h.warehouse.faultHook = undefined;
    expect(h.warehouse.reopened).toBe(reopened);
    // Still out of reach: the next write fails the same way instead of using the closed file.
    await expect(h.core.syncBatch({ partition, maxPages: 2, mode: 'sync', runId: 'r5', snapshotAt: 5 })).rejects.toThrow(/could not be opened again/);
    rmdirSync(path);
    renameSync(`${path}.away`, path);
    // Back in place: the next write opens it, from the checkpoint it held.
    expect(await h.warehouse.withWriter(async () => 'open')).toBe('open');
    expect(h.warehouse.reopened).toBe(reopened + 1);
    expect((await h.warehouse.readCheckpoint(partition.id))!.pages).toBe(before.pages);
    h.sim.advance(3);
    for (let i = 0; i < 100 && !(await h.core.syncBatch({ partition, maxPages: 2, mode: 'sync', runId: 'r5', snapshotAt: 5 })).done; i++);
    const blocks = await truth(h.sim, `/v1/chains/${String(partition.params.chainId)}/blocks`);
    const stored = await h.warehouse.query('SELECT block_hash FROM evm_blocks ORDER BY block_number DESC');
    expect(stored.map((r) => r.block_hash)).toEqual(blocks.map((b) => b.blockHash));
  }, 60_000);
});
