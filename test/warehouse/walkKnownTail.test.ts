import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMS } from '../../activities/streams/catalog.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { Row } from '../../activities/warehouse/tableDef.ts';
import type { Warehouse } from '../../activities/warehouse/warehouse.ts';
import { createLogger } from '../../worker/logger.ts';
import { truthClient } from '../helpers/truthTables.ts';
import { drain, expectExact, startHarness, type Harness } from './harness.ts';

/**
 * A sync walk that reaches the known part of a newest-first list writes only what is new
 * (activities/sync/walk.ts, storedPart): descending-until-known walks leave out the items below the
 * high-water mark and those at it that the last walk named (markIds); pn.rewards (snapshot-merge
 * with identity) the known reward and everything after it. What the warehouse was
 * given is read from the batches handed to the real warehouse's commit; the run records still count
 * what the pages held, and the warehouse equals ground truth after every run, a walk interrupted
 * between pages (and its page token expired) included.
 */

let h: Harness;
let now = Date.UTC(2026, 10, 21);
let partitions: PartitionSpec[] = [];

/** Rows handed to the warehouse's commits, per partition and table: primary-key texts, in order. */
const staged = new Map<string, Map<string, string[]>>();

const keyText = (table: string, row: Record<string, unknown>): string => {
  const def = tableOf(table);
  return JSON.stringify(def.primaryKey.map((k) => String(row[k] ?? '')));
};
const tableOf = (name: string) => Object.values(STREAMS).flatMap((s) => s.tables).find((t) => t.name === name)!;

/** Records the key of every row a commit is given, then commits it as it was given. */
function spyOnCommits(warehouse: Warehouse): void {
  const commit = warehouse.commitBatch.bind(warehouse);
  warehouse.commitBatch = (tables, checkpoint, run, walk) => {
    const byTable = staged.get(checkpoint.partitionId) ?? new Map<string, string[]>();
    for (const batch of tables) {
      const keys = byTable.get(batch.table.name) ?? [];
      for (let i = 0; i < batch.rows; i++) keys.push(keyText(batch.table.name, Object.fromEntries(batch.table.columns.map((c, k) => [c.name, batch.columns[k][i]]))));
      byTable.set(batch.table.name, keys);
    }
    staged.set(checkpoint.partitionId, byTable);
    return commit(tables, checkpoint, run, walk);
  };
}

/** Ground truth rows of a partition (the whole list in one page, through the stream's own normalizer), per table in list order. */
async function truthRows(p: PartitionSpec): Promise<Record<string, Row[]>> {
  const page = await STREAMS[p.stream].fetch(truthClient(h.sim), p, { pageToken: null, pageSize: 100 });
  return page.rows({ partition: p, snapshotAt: 1, runId: 'truth' });
}

/** The walk-order column and the identity column of each descending-until-known parent table. */
const ORDER: Record<string, [order: string, id: string]> = {
  evm_blocks: ['block_number', 'block_hash'],
  evm_transactions: ['block_number', 'tx_hash'],
  pn_transactions: ['block_timestamp', 'tx_hash'],
  pn_vertices: ['vertex_height', 'vertex_hash'],
};
/** Tables filled with the entries of a parent's lists: keyed by the parent's key first. */
const CHILDREN: Record<string, string[]> = { pn_transactions: ['pn_transaction_utxos', 'pn_transaction_amounts', 'pn_l1_validator_details'] };
const parentKey = (row: Row) => JSON.stringify([String(row.network), String(row.blockchain_id), String(row.tx_hash)]);

/**
 * The keys a sync of `p` should write, from ground truth now and the cursor the last walk left:
 * descending walks the items above the mark (at it too unless the keys are unique), with their
 * list entries; pn.rewards the rewards listed before the known one.
 */
async function expectedWrites(p: PartitionSpec, cursor: Record<string, unknown>): Promise<Map<string, Set<string>>> {
  const rows = await truthRows(p);
  const out = new Map<string, Set<string>>();
  if (p.stream === 'pn.rewards') {
    const list = rows.pn_rewards;
    const at = list.findIndex((r) => `${String(r.tx_hash)}/${String(r.utxo_id)}` === cursor.top);
    expect(at).toBeGreaterThanOrEqual(0);
    out.set('pn_rewards', new Set(list.slice(0, at).map((r) => keyText('pn_rewards', r))));
    return out;
  }
  const [parent] = STREAMS[p.stream].tables;
  const hwm = Number(cursor.hwm);
  const [order, id] = ORDER[parent.name];
  const named = new Set((cursor.markIds as string[] | undefined) ?? []);
  const kept = rows[parent.name].filter((r) => r[order] == null || Number(r[order]) > hwm || (Number(r[order]) === hwm && !named.has(String(r[id]))));
  out.set(parent.name, new Set(kept.map((r) => keyText(parent.name, r))));
  const parents = new Set(kept.map(parentKey));
  for (const child of CHILDREN[parent.name] ?? []) out.set(child, new Set((rows[child] ?? []).filter((r) => parents.has(parentKey(r))).map((r) => keyText(child, r))));
  return out;
}

/** Distinct keys each table of `p` was given since `staged` was last cleared. */
const writtenBy = (p: PartitionSpec): Map<string, Set<string>> => new Map([...(staged.get(p.id) ?? new Map<string, string[]>())].map(([t, keys]) => [t, new Set(keys)]));

/** Keys every table of the stream holds in ground truth now. */
async function truthKeys(p: PartitionSpec): Promise<Map<string, Set<string>>> {
  return new Map(Object.entries(await truthRows(p)).map(([t, list]) => [t, new Set(list.map((r) => keyText(t, r)))]));
}

const runRows = async (runId: string, partitionId: string) => {
  const [r] = await h.warehouse.query('SELECT sum(rows) AS rows, sum(pages) AS pages FROM _glacier_sync_runs WHERE run_id = $1 AND partition_id = $2', [runId, partitionId]);
  return { rows: Number(r.rows), pages: Number(r.pages) };
};

beforeAll(async () => {
  h = await startHarness({
    sim: { size: 'small', clock: () => now, tokenTtlMs: 60_000 },
    config: (sim) => {
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[] };
      const p = (sim.world.describe().primary as Record<string, { addresses: string[]; nodeIds: string[] }>).mainnet;
      return {
        streams: ['evm.blocks', 'evm.transactions', 'pn.transactions', 'pn.vertices', 'pn.rewards'],
        evmChains: [{ chainId: evm.chains[0].chainId }],
        networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], nodeIds: p.nodeIds.slice(0, 3), rewardsForDiscoveredValidators: false }],
      };
    },
  });
  spyOnCommits(h.warehouse);
  // Chain-wide walks only (no address set): every partition is newest-first until known.
  partitions = await h.core.planPartitions({});
  for (const p of partitions) await drain(h.core, p, { mode: 'backfill', runId: 'b', snapshotAt: 1 });
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe('sync walks write only what is new', () => {
  it('the backfill wrote every item: the partitions cover each mode', async () => {
    expect(partitions.map((p) => p.stream).sort()).toEqual(['evm.blocks', 'evm.transactions', 'pn.rewards', 'pn.transactions', 'pn.transactions', 'pn.transactions', 'pn.vertices']);
    for (const p of partitions) {
      const truth = await truthKeys(p);
      for (const [table, keys] of writtenBy(p)) expect({ p: p.id, table, n: keys.size }).toEqual({ p: p.id, table, n: truth.get(table)!.size });
    }
    await expectExact(h, partitions, 1);
  });

  it('a sync without growth writes nothing, and counts the page it read', async () => {
    const cursors = new Map(await Promise.all(partitions.map(async (p) => [p.id, { ...(await h.core.readCheckpoint(p.id))!.cursor }] as const)));
    staged.clear();
    for (const p of partitions) await drain(h.core, p, { mode: 'sync', runId: 's0', snapshotAt: 2 });
    for (const p of partitions) {
      const expected = await expectedWrites(p, cursors.get(p.id)!);
      const written = writtenBy(p);
      for (const [table, keys] of expected) expect({ p: p.id, table, keys: [...(written.get(table) ?? [])].sort() }).toEqual({ p: p.id, table, keys: [...keys].sort() });
      // The run record counts the rows of the page it read, not the ones it wrote.
      const run = await runRows('s0', p.id);
      expect(run.pages).toBe(1);
      expect(run.rows).toBeGreaterThan([...written.values()].reduce((n, k) => n + k.size, 0));
    }
    // The backfill named the items at every mark: nothing is written again.
    for (const p of partitions) expect({ p: p.id, cursor: cursors.get(p.id)!.markIds !== undefined || p.stream === 'pn.rewards', written: [...writtenBy(p).values()].reduce((n, k) => n + k.size, 0) }).toEqual({ p: p.id, cursor: true, written: 0 });
    await expectExact(h, partitions, 2);
  }, 120_000);

  it('after growth a sync writes exactly the new items, across an interrupted walk whose token expired', async () => {
    const before = new Map(await Promise.all(partitions.map(async (p) => [p.id, await truthKeys(p)] as const)));
    const cursors = new Map(await Promise.all(partitions.map(async (p) => [p.id, { ...(await h.core.readCheckpoint(p.id))!.cursor }] as const)));
    h.sim.advance(150);
    staged.clear();
    let interrupted = 0;
    for (const p of partitions) {
      // One page, then the worker is gone for an hour (the page token expires); a new core resumes from the checkpoint.
      const first = await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: 's1', snapshotAt: 3 });
      if (!first.done) interrupted++;
    }
    now += 3_600_000;
    const resumed = createSyncCore({ client: h.client, warehouse: h.warehouse, config: h.config, logger: createLogger({ level: 'silent' }) });
    for (const p of partitions) await drain(resumed, p, { mode: 'sync', runId: 's1', snapshotAt: 3 });
    expect(interrupted).toBeGreaterThanOrEqual(3);

    let grown = 0;
    for (const p of partitions) {
      const expected = await expectedWrites(p, cursors.get(p.id)!);
      const written = writtenBy(p);
      const after = await truthKeys(p);
      for (const [table, keys] of expected) {
        expect({ p: p.id, table, keys: [...(written.get(table) ?? [])].sort() }).toEqual({ p: p.id, table, keys: [...keys].sort() });
        // What is new since the last sync is written: every key ground truth gained is among them.
        const gained = [...(after.get(table) ?? [])].filter((k) => !before.get(p.id)!.get(table)?.has(k));
        expect(gained.filter((k) => !keys.has(k))).toEqual([]);
        grown += gained.length;
      }
    }
    expect(grown).toBeGreaterThan(0);
    await expectExact(h, partitions, 3);
  }, 180_000);
});
