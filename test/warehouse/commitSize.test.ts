import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataApiClient } from '../../activities/api/index.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { tableByName } from '../../activities/streams/catalog.ts';
import { createLogger } from '../../worker/logger.ts';
import { startHarness, truth, type Harness } from './harness.ts';

/**
 * A batch never commits more than the commit size allows (COMMIT_MAX_CELLS; lowered here): a batch of
 * many pages commits as it goes, each commit with the walk state after its last page, and the result
 * is the same warehouse as committing the whole batch at once.
 */

let h: Harness;
const blockCells = tableByName('evm_blocks')!.columns.length;

beforeAll(async () => {
  h = await startHarness({ config: (sim) => ({ streams: ['evm.blocks'], evmChains: [{ chainId: (sim.world.describe().evm as unknown as { chains: { chainId: string }[] }).chains[0].chainId }] }), pageSize: 10 });
});

afterAll(async () => {
  await h?.close();
});

describe('commit size', () => {
  it('a batch past the cell budget commits every few pages, and the warehouse equals the list', async () => {
    const logger = createLogger({ level: 'silent' });
    const client = createDataApiClient({ baseUrl: h.sim.baseUrl, metricsUrl: h.sim.metricsUrl, tier: 'pro', concurrency: 1, logger, rateLimitOverride: { perWindow: 1e9, perDay: 1e12, metrics: { perWindow: 1e9, perDay: 1e12 } } });
    // Three pages of ten blocks fill the budget: a 7-page batch commits after pages 3 and 6, then at its end.
    const core = createSyncCore({ client, warehouse: h.warehouse, config: h.config, logger, commitMaxCells: 30 * blockCells });
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

describe('checkpoint threshold', () => {
  it('is an eighth of the memory limit, between 1 MiB and DuckDB default 16 MiB', async () => {
    const { checkpointThreshold } = await import('../../activities/warehouse/warehouse.ts');
    expect(checkpointThreshold('64MB')).toBe('7MiB');
    expect(checkpointThreshold('64MiB')).toBe('8MiB');
    expect(checkpointThreshold('1GB')).toBe('16MiB');
    expect(checkpointThreshold('4MB')).toBe('1MiB');
    expect(() => checkpointThreshold('lots')).toThrow(/expected a size/);
  });
});
