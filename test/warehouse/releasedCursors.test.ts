import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckpointView, PartitionSpec } from '../../activities/sync/types.ts';
import { drain, expectExact, firstChainTxHashes, startHarness, type Harness } from './harness.ts';

/**
 * Release 0.1.0 stored the walk cursor of pn.utxos, pn.validators and evm.transaction_details with
 * the stream's own fields flat beside the generic ones (spendsFrom/eventsMax; watch, tops, collected,
 * firsts, listed, size; final, reading); this release keeps them in `cursor.stream`. A warehouse
 * written by 0.1.0 must go on as if nothing changed: a sync from a complete 0.1.0 checkpoint, and the
 * resumption of a 0.1.0 walk stopped mid-way, make the same requests and leave the same checkpoint
 * as from this release's own cursor, and the warehouse equals ground truth.
 *
 * The 0.1.0 shape here is this release's cursor with its part flattened. Checked once against 0.1.0's
 * own sync core (v0.1.0 extracted beside this tree, one process, one warehouse file): the checkpoints
 * it wrote mid-walk (pn.utxos: known, spendsFrom, newest, eventsMax, page; pn.validators: watch, tops,
 * size, collected, page; evm.transaction_details: final, reading, page) resumed on this release with
 * the same requests per phase as a run of this release alone (105, 24, 25), the same final cursors,
 * and every table equal to ground truth.
 */

let h: Harness;
let hashes: string[];

/** The cursor as release 0.1.0 stored it: the stream's own fields flat, no `stream`. */
function as010(cursor: Record<string, unknown>): Record<string, unknown> {
  const { stream, ...generic } = cursor;
  return { ...generic, ...(stream as Record<string, unknown> | undefined) };
}

/** Puts a checkpoint back as it was, its cursor in the given shape (what a 0.1.0 worker committed). */
async function restore(cp: CheckpointView, cursor: Record<string, unknown>): Promise<void> {
  const { partitionId, stream, pageToken, rows, pages, complete } = cp;
  await h.warehouse.commitBatch([], { partitionId, stream, pageToken, cursor, rows, pages, complete });
}

const requests = () => h.sim.stats().log.length;

/** Drains the partition from the stored checkpoint; the requests it made and the checkpoint it left. */
async function resume(p: PartitionSpec, runId: string, snapshotAt: number) {
  const before = requests();
  await drain(h.core, p, { runId, mode: 'sync', snapshotAt });
  const cp = (await h.core.readCheckpoint(p.id))!;
  return { requests: requests() - before, cursor: cp.cursor, rows: cp.rows, complete: cp.complete };
}

/**
 * From `start` (a checkpoint of this release): the walk in this release's shape, then the same walk
 * from the same checkpoint in 0.1.0's shape. Returns what the first did.
 */
async function sameFromBothShapes(p: PartitionSpec, start: CheckpointView, runId: string, snapshotAt: number) {
  const flat = as010(start.cursor);
  // The shape 0.1.0 wrote: no `stream`, the stream's fields at the top.
  expect(flat.stream).toBeUndefined();
  const now = await resume(p, runId, snapshotAt);
  await restore(start, flat);
  const released = await resume(p, runId, snapshotAt);
  expect(released).toEqual(now);
  return now;
}

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small' },
    config: async (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
      const first = await firstChainTxHashes(sim, 16);
      hashes = first.hashes;
      return {
        streams: ['pn.utxos', 'pn.validators', 'evm.transaction_details'],
        networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain'], addresses: p.addresses.slice(0, 6) }],
        evmChains: [{ chainId: first.chainId, transactions: hashes.slice(0, 8) }],
      };
    },
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('cursors stored by release 0.1.0', () => {
  for (const [name, fields] of [
    ['pn.utxos', ['spendsFrom']],
    ['pn.validators', ['watch', 'tops']],
  ] as const) {
    it(`${name}: a sync from a complete 0.1.0 checkpoint and a 0.1.0 walk stopped mid-way go on as from this release's cursor`, async () => {
      const partitions = (await h.core.planPartitions({ streams: [name] })).filter((p) => p.stream === name);
      expect(partitions.length).toBeGreaterThan(0);
      const p = partitions[0];
      await drain(h.core, p, { runId: `${name}-b`, mode: 'backfill', snapshotAt: 1 });
      h.sim.advance(150);
      const complete = (await h.core.readCheckpoint(p.id))!;
      expect(complete.complete).toBe(true);
      // The marks an incremental sync steers by, which 0.1.0 kept flat.
      for (const f of fields) expect(as010(complete.cursor)[f], f).toBeDefined();
      const synced = await sameFromBothShapes(p, complete, `${name}-s`, 2);
      expect(synced.requests).toBeGreaterThan(0);
      await expectExact(h, [p], 2);

      // A sync stopped after its first page (a crash, or the worker replaced by this release).
      h.sim.advance(150);
      await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: `${name}-m`, snapshotAt: 3 });
      const mid = (await h.core.readCheckpoint(p.id))!;
      expect(mid.complete).toBe(false);
      await sameFromBothShapes(p, mid, `${name}-m`, 3);
      await expectExact(h, [p], 3);
    }, 240_000);
  }

  it('evm.transaction_details: hashes a 0.1.0 walk stored are not asked again; a 0.1.0 walk stopped mid-way resumes', async () => {
    const [base] = await h.core.planPartitions({ streams: ['evm.transaction_details'] });
    const over = (n: number): PartitionSpec => ({ ...base, params: { ...base.params, txHashes: hashes.slice(0, n) } });
    await drain(h.core, over(8), { runId: 'd-b', mode: 'backfill', snapshotAt: 1 });
    const complete = (await h.core.readCheckpoint(base.id))!;
    expect(as010(complete.cursor).final).toHaveLength(8);
    // Four hashes added to the config: four requests, whichever shape the stored cursor has.
    const synced = await sameFromBothShapes(over(12), complete, 'd-s', 2);
    expect(synced.requests).toBe(4);
    await expectExact(h, [over(12)], 2);

    await h.core.syncBatch({ partition: over(16), maxPages: 1, mode: 'sync', runId: 'd-m', snapshotAt: 3 });
    const mid = (await h.core.readCheckpoint(base.id))!;
    expect(mid.complete).toBe(false);
    expect(as010(mid.cursor).reading).toHaveLength(1);
    const resumed = await sameFromBothShapes(over(16), mid, 'd-m', 3);
    expect(resumed.requests).toBe(3);
    await expectExact(h, [over(16)], 3);
  }, 240_000);
});
