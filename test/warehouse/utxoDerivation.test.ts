import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchInput, PartitionSpec } from '../../activities/sync/types.ts';
import { expandLakeKeys } from '../../activities/warehouse/lakeKeys.ts';
import { expectExact, runWaves, startUtxoHarness, type Harness } from './harness.ts';

/**
 * pn.utxos in a sync that also walks pn.transactions (activities/streams/utxoDerivation.ts): the
 * UTXOs created on a chain come from the transactions the walk stores, the UTXO list is read only
 * for exports from other chains, and pn_utxos equals the list row for row after every run: after
 * the backfill, after syncs following growth, after a sync that crashed mid-walk, and whichever of
 * the two walks commits first, batch by batch.
 */

let h: Harness;

const utxoListRequests = () => h.sim.stats().log.filter((e) => e.method === 'POST' && /\/utxos$/.test(e.path)).length;

const exact = (partitions: PartitionSpec[], snapshotAt: number) => expectExact(h, partitions, snapshotAt);

const pipelineRun = (mode: 'backfill' | 'sync', runId: string, snapshotAt: number) => runWaves(h, mode, runId, snapshotAt);

/** Batches of the partitions interleaved one page at a time, in the given order, until all are done. */
async function interleaved(partitions: PartitionSpec[], run: Omit<BatchInput, 'partition' | 'maxPages'>): Promise<void> {
  let open = [...partitions];
  while (open.length > 0) {
    const still: PartitionSpec[] = [];
    for (const p of open) if (!(await h.core.syncBatch({ partition: p, maxPages: 1, ...run })).done) still.push(p);
    open = still;
  }
}

beforeAll(async () => {
  h = await startUtxoHarness();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('pn.utxos from the pn.transactions walk of the same sync', () => {
  let all: PartitionSpec[] = [];

  it('backfill reads the UTXO list in the first wave; syncs take new UTXOs from the transactions and stay exact, a crash included', async () => {
    const before = utxoListRequests();
    const { waves } = await pipelineRun('backfill', 'b', 1);
    all = waves.flat();
    const utxos = all.filter((p) => p.stream === 'pn.utxos');
    expect(utxos.length).toBe(3);
    // The backfill is the reference snapshot: the list, read with the transactions in the first wave.
    expect(waves[0].filter((p) => p.stream === 'pn.utxos').length).toBe(3);
    expect(utxoListRequests() - before).toBeGreaterThanOrEqual(utxos.length);
    await exact(all, 1);

    const count = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM pn_utxos'))[0].n);
    let listed = 0;
    for (let i = 0; i < 6; i++) {
      h.sim.advance(100);
      const rows = await count();
      if (i === 2) {
        // A sync that crashes after one page of every transactions walk, then is abandoned.
        for (const p of await h.core.planPartitions({ discovered: false, mode: 'sync', runId: 'crashed', snapshotAt: 20 })) {
          await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: 'crashed', snapshotAt: 20 });
        }
      }
      const mark = utxoListRequests();
      const { waves: w } = await pipelineRun('sync', `s-${i}`, 10 + i);
      // In a sync the UTXO partitions come after every transactions partition.
      expect(w[0].some((p) => p.stream === 'pn.utxos')).toBe(false);
      expect(w[1].filter((p) => p.stream === 'pn.utxos').length).toBe(3);
      const asked = utxoListRequests() - mark;
      // Only partitions the transactions could not serve (exports not yet imported into their chain) read the list.
      const needed = w[1].filter((p) => p.params.listNeeded === true).length;
      // Exports to the X- and C-chain come from the exporting transaction (generic Utxo shape): only the P-chain's may need its list.
      expect(w[1].filter((p) => p.params.listNeeded === true && p.params.blockchainId !== 'p-chain').map((p) => p.id)).toEqual([]);
      if (needed === 0) expect(asked).toBe(0);
      listed += needed;
      expect(await count()).toBeGreaterThan(rows);
      await exact(all, 10 + i);
    }
    // Fewer list walks than one per sync (this world exports to these addresses every few steps), and
    // some: exports to the P-chain still read it.
    expect(listed).toBeLessThan(6);
    expect(listed).toBeGreaterThan(0);
  }, 600_000);

  it('stays exact whichever walk commits first, page by page, with the list walk of every partition', async () => {
    h.sim.advance(150);
    // Planned at once (no waves): every UTXO partition reads the list; the transactions walks derive too.
    const partitions = await h.core.planPartitions({ mode: 'sync', runId: 'mixed' });
    expect(partitions.filter((p) => p.stream === 'pn.utxos').every((p) => p.params.listNeeded === true)).toBe(true);
    const utxosFirst = [...partitions].sort((a, b) => (a.stream === b.stream ? 0 : a.stream === 'pn.utxos' ? -1 : 1));
    await interleaved(utxosFirst, { mode: 'sync', runId: 'mixed', snapshotAt: 40 });
    await exact(all, 40);

    h.sim.advance(150);
    await interleaved([...utxosFirst].reverse(), { mode: 'sync', runId: 'mixed-2', snapshotAt: 41 });
    await exact(all, 41);
    // And a derived sync right after: nothing the list would add is missing.
    h.sim.advance(100);
    await pipelineRun('sync', 'after', 42);
    await exact(all, 42);
  }, 600_000);

  it('never moves a stored row back to unspent', async () => {
    // Every spent row in pn_utxos has a consuming transaction stored: replay the spend-free copy of
    // one through the derivation (a stale emitted copy) and through the list's guard.
    const spent = await h.warehouse.query(
      `SELECT u.network, u.blockchain_id, u.utxo_id FROM pn_utxos u JOIN pn_transaction_utxos t ON t.network = u.network AND t.blockchain_id = u.blockchain_id AND t.utxo_id = u.utxo_id AND t.direction = 'consumed' WHERE u.consuming_tx_hash IS NOT NULL LIMIT 1`,
    );
    expect(spent.length).toBe(1);
    const [{ network, blockchain_id: chain, utxo_id: id }] = spent as { network: string; blockchain_id: string; utxo_id: string }[];
    await h.warehouse.withWriter(async (c) => {
      await c.run(`UPDATE pn_transaction_utxos SET consuming_tx_hash = NULL WHERE direction = 'emitted' AND utxo_id = '${id}'`);
      await c.run(`CREATE TEMP TABLE stage_links AS SELECT a.* FROM pn_address_transactions a JOIN pn_transaction_utxos t USING (network, blockchain_id, tx_hash) WHERE t.utxo_id = '${id}' AND t.direction = 'emitted'`);
    });
    const { readFileSync } = await import('node:fs');
    const derive = expandLakeKeys(readFileSync('sql/ops/deriveUtxosFromTransactions.sql', 'utf8')).replaceAll('{stage}', 'stage_links');
    await h.warehouse.withWriter((c) => c.run(derive));
    const row = await h.warehouse.query(`SELECT consuming_tx_hash FROM pn_utxos WHERE network = '${network}' AND blockchain_id = '${chain}' AND utxo_id = '${id}'`);
    expect(row[0].consuming_tx_hash).not.toBeNull();
    // The list's guard: a row stored unspent takes the stored spend back.
    await h.warehouse.withWriter(async (c) => {
      await c.run(`UPDATE pn_utxos SET consuming_tx_hash = NULL WHERE utxo_id = '${id}'`);
      await c.run(`CREATE TEMP TABLE stage_utxos AS SELECT * FROM pn_utxos WHERE utxo_id = '${id}'`);
      await c.run(expandLakeKeys(readFileSync('sql/ops/keepUtxoSpends.sql', 'utf8')).replaceAll('{stage}', 'stage_utxos'));
    });
    const again = await h.warehouse.query(`SELECT consuming_tx_hash FROM pn_utxos WHERE network = '${network}' AND blockchain_id = '${chain}' AND utxo_id = '${id}'`);
    expect(again[0].consuming_tx_hash).not.toBeNull();

    // The same for transactions the API sent without a time (every optional in its schema): their
    // rows' tx_block_timestamp is NULL, and the lookups that prune on it must still find them.
    await h.warehouse.withWriter(async (c) => {
      await c.run(`UPDATE pn_transaction_utxos SET tx_block_timestamp = NULL WHERE utxo_id = '${id}'`);
      await c.run(`UPDATE stage_links SET block_timestamp = NULL`);
      await c.run(`UPDATE pn_utxos SET consuming_tx_hash = NULL WHERE utxo_id = '${id}'`);
      await c.run(derive);
    });
    const derived = await h.warehouse.query(`SELECT consuming_tx_hash FROM pn_utxos WHERE network = '${network}' AND blockchain_id = '${chain}' AND utxo_id = '${id}'`);
    expect(derived[0].consuming_tx_hash).not.toBeNull();
    await h.warehouse.withWriter(async (c) => {
      await c.run(`UPDATE pn_utxos SET consuming_tx_hash = NULL WHERE utxo_id = '${id}'`);
      await c.run(expandLakeKeys(readFileSync('sql/ops/keepUtxoSpends.sql', 'utf8')).replaceAll('{stage}', 'stage_utxos'));
    });
    const kept = await h.warehouse.query(`SELECT consuming_tx_hash FROM pn_utxos WHERE network = '${network}' AND blockchain_id = '${chain}' AND utxo_id = '${id}'`);
    expect(kept[0].consuming_tx_hash).not.toBeNull();
  }, 120_000);
});
