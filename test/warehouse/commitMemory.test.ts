import { afterEach, describe, expect, it } from 'vitest';
import { drainAll, startHarness, type Harness } from './harness.ts';
import { startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';

/*
 * Issue 38: a commit's memory follows its batch, not the stored history; a batch that cannot fit
 * commits in pieces; one that cannot fit even so stops its partition with one line instead of being
 * retried forever.
 */

let harness: Harness | PipelineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Rows of stored history in pn_transactions: far more than a 64 MB buffer holds as a hash table of its hashes. */
const HISTORY = 1_500_000;

describe('commit memory', () => {
  // At the default limit. Before the reward marks looked pn_transactions up through the batch's hashes,
  // every P-chain batch here stopped with CommitMemoryError (even 85 rows at a time). The P-chain
  // commit's statements need about 48 MB whatever the history (the same at 0.4M, 1.5M and 3M stored
  // rows, with 1, 2 or 4 DuckDB threads): a 48MB limit ran them out of memory in some runs, so this
  // test ran flaky there (CI, session 18).
  it('commits P-chain batches into a long stored history at the default memory limit', async () => {
    const h = await startHarness({ config: () => ({ networks: [{ network: 'mainnet', chains: ['p-chain'] }], streams: ['pn.transactions'] }), pageSize: 100 });
    harness = h;
    // A long history, as a mainnet backfill leaves it: hashes of 64 hex digits, rewards named.
    await h.warehouse.withWriter((c) =>
      c.run(
        `INSERT INTO pn_transactions (network, blockchain_id, tx_hash, block_timestamp, block_number, tx_type, reward_tx_hash)
         SELECT 'mainnet', '11111111111111111111111111111111LpoYY', md5(CAST(i AS VARCHAR)) || md5(CAST(-i AS VARCHAR)), 1600000000 + i, CAST(i AS VARCHAR), 'AddPermissionlessDelegatorTx',
                CASE WHEN i % 3 = 0 THEN md5(CAST(i + 1 AS VARCHAR)) || md5(CAST(-i - 1 AS VARCHAR)) END
         FROM range(${HISTORY}) AS r(i)`,
      ),
    );
    const partitions = await drainAll(h, ['pn.transactions']);
    expect(partitions.length).toBeGreaterThan(0);
    const [{ n }] = await h.warehouse.query(`SELECT count(*) AS n FROM pn_transactions`);
    expect(Number(n)).toBeGreaterThan(HISTORY);
    // Not one commit ran out of buffer memory and was retried.
    expect(h.warehouse.relieved).toBe(0);
  }, 600_000);

  it('stops a partition whose batch does not fit even in pieces, with one line naming the setting, and finishes the run', async () => {
    const h = await startPipelineHarness({
      edit: (config) => {
        config.streams = ['pn.transactions', 'evm.blocks'];
        config.warehouse = { ...config.warehouse, memoryLimit: '16MB' };
      },
    });
    harness = h;
    const status = await h.run({ mode: 'backfill' });
    const failed = status.partitions.filter((p) => p.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const p of failed) {
      expect(p.error).toMatch(/does not fit the warehouse's buffer limit \(warehouse\.memoryLimit 16MB\).*raise warehouse\.memoryLimit/);
      expect(p.error).not.toContain('\n');
    }
    // Stopped, not retried forever: the run ended after the batch was tried in pieces; the rest went on.
    expect(h.logs()).toContain('committing the batch in pieces');
    expect(status.partitions.filter((p) => p.state === 'done').length).toBeGreaterThan(0);
  }, 600_000);
});
