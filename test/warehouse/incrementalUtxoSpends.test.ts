import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCosts } from '../../activities/sync/streamCosts.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { drain, expectExact, startUtxoHarness, type Harness } from './harness.ts';

/**
 * pn.utxos in a run that also walks pn.transactions: the spends of stored UTXOs come from the
 * transactions that walk stores (sql/ops/propagateUtxoSpends.sql), so pn.utxos reads only its new
 * UTXOs, in whichever order the two commit; a later run without pn.transactions reads the spends
 * itself from where its last own walk left them. Exact after every run.
 */

let h: Harness;

/** pn.utxos's own spends walk is the only request that lists transactions oldest first. */
const spendWalkRequests = () => h.sim.stats().log.filter((e) => e.path.endsWith('/transactions') && /(^|&)sortOrder=asc(&|$)/.test(e.query)).length;

const exact = (partitions: PartitionSpec[], snapshotAt: number) => expectExact(h, partitions, snapshotAt);

beforeAll(async () => {
  h = await startUtxoHarness();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('pn.utxos spends from the pn.transactions walk of the same run', () => {
  it('reads new UTXOs only, takes spends from the stored transactions in either commit order, and stays exact', async () => {
    const partitions = await h.core.planPartitions({});
    const utxos = partitions.filter((p) => p.stream === 'pn.utxos');
    const txs = partitions.filter((p) => p.stream === 'pn.transactions');
    expect(utxos.length).toBeGreaterThan(0);
    expect(utxos.every((p) => p.params.spendsFromTransactions === true)).toBe(true);
    for (const p of partitions) await drain(h.core, p, { runId: 'b1', mode: 'backfill', snapshotAt: 1 });
    await exact(partitions, 1);
    const backfill = (await streamCosts(h.warehouse, 'b1')).find((c) => c.stream === 'pn.utxos')!;

    await h.warehouse.withWriter((c) => c.run('CREATE TABLE unspent_at_backfill AS SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NULL'));
    const oldSpent = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_utxos JOIN unspent_at_backfill USING (utxo_id) WHERE consuming_tx_hash IS NOT NULL'))[0].n);
    const before = spendWalkRequests();
    let spent = 0;
    for (let i = 0; i < 10 && (spent === 0 || i < 2); i++) {
      h.sim.advance(100);
      // Odd runs commit the UTXOs first, even runs the transactions first.
      const order = i % 2 === 0 ? [...utxos, ...txs] : [...txs, ...utxos];
      for (const p of order) await drain(h.core, p, { runId: `s-${i}`, mode: 'sync', snapshotAt: 10 + i });
      await exact(partitions, 10 + i);
      spent = await oldSpent();
      const cost = (await streamCosts(h.warehouse, `s-${i}`)).find((c) => c.stream === 'pn.utxos')!;
      // New UTXOs only: about a page per partition, far below the backfill.
      expect(cost.pages).toBeLessThanOrEqual(2 * utxos.length);
      expect(cost.pages * 4).toBeLessThan(backfill.pages + 4 * utxos.length);
    }
    expect(spendWalkRequests() - before).toBe(0);
    // UTXOs unspent at the backfill were spent later, and the stored transactions carried it.
    expect(spent).toBeGreaterThan(0);

    // A run of pn.utxos alone reads the spends itself, from where its last own walk (the backfill) left them.
    h.sim.advance(100);
    const alone = await h.core.planPartitions({ streams: ['pn.utxos'] });
    expect(alone.every((p) => p.params.spendsFromTransactions === undefined)).toBe(true);
    const mark = spendWalkRequests();
    for (const p of alone) await drain(h.core, p, { runId: 'alone', mode: 'sync', snapshotAt: 30 });
    expect(spendWalkRequests() - mark).toBeGreaterThan(0);
    await exact(alone, 30);
  }, 600_000);
});
