import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import type { SyncPort } from '../../activities/ports.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { snapshotWalksExport } from '../../activities/warehouse/snapshotWalksTable.ts';
import { versionKey, versionTracked, type TableDef } from '../../activities/warehouse/tableDef.ts';
import type { StreamName } from '../../common/streamNames.ts';
import { lakeOf } from '../../worker/paths.ts';
import type { PipelineStatus } from '../../workflows/pipeline.ts';
import { compareWithTruth } from '../helpers/truthTables.ts';
import { differing, lakeDifferences, readLakeElsewhere } from '../helpers/lakeCompare.ts';
import { startPipelineHarness, type PipelineHarness } from '../helpers/pipelineHarness.ts';

/**
 * Snapshot tables hold versions (merge 'versions'), through the whole product: a backfill, nights
 * of growth, a night with none, and a night whose walk is killed after a commit and resumed by the
 * activity's retry. After each night the tables as of its snapshot equal the API; an idle night
 * writes no row to them; at the end the tables as of every earlier snapshot still read what they read
 * that night, versions are minimal (no two adjacent versions of a key hold the same values, so a
 * resumed walk left exactly what an uninterrupted one would), and the lake equals the warehouse.
 */

const SNAPSHOT_STREAMS: StreamName[] = ['evm.native_balances', 'evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances', 'metrics.holders', 'pn.balances', 'pn.pending_rewards'];
const versioned = (): TableDef[] => allTables().filter((t) => t.merge === 'versions');

let h: PipelineHarness;
let partitions: PartitionSpec[];
/** The partition whose walk dies after its first committed batch on the crash night (then resumes). */
let crash: { partition: string; fired: boolean } | undefined;
/** What each table read as of each night's snapshot, when that night had just run (checked against the API then). */
const readings = new Map<number, Map<string, string[]>>();

const asOf = (x: number) => `snapshot_at <= ${x} AND (valid_to IS NULL OR valid_to > ${x})`;

async function reading(x: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const def of versioned()) {
    const rows = await h.runtime.warehouse.query(`SELECT to_json(t)::VARCHAR AS r FROM (SELECT * EXCLUDE (snapshot_at, valid_to) FROM "${def.name}" WHERE ${asOf(x)}) t ORDER BY r`);
    out.set(def.name, rows.map((r) => String(r.r)));
  }
  return out;
}

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const def of versioned()) out[def.name] = Number((await h.runtime.warehouse.query(`SELECT count(*) AS n FROM "${def.name}"`))[0].n);
  return out;
}

/** One night: a sync (and export) at a snapshot second of its own, checked against the API as of that snapshot. */
async function night(): Promise<PipelineStatus> {
  // Snapshots are epoch seconds: two runs in one second would share one.
  await new Promise((r) => setTimeout(r, 1100));
  const status = await h.run({ mode: 'sync', exportParquet: true, maxPagesPerBatch: 1 });
  expect(status.partitions.filter((p) => p.state !== 'done')).toEqual([]);
  await expectTruth(status.snapshotAt);
  return status;
}

async function expectTruth(snapshotAt: number): Promise<void> {
  const compared = await compareWithTruth(h.sim, h.runtime.warehouse, partitions, { snapshotAt });
  const latest = await compareWithTruth(h.sim, h.runtime.warehouse, partitions, { snapshotAt, latest: true });
  const bad = [...compared, ...latest].filter((c) => c.lost || c.duplicated);
  expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
  expect(compared.filter((c) => c.expected > 0).length).toBeGreaterThan(3);
  readings.set(snapshotAt, await reading(snapshotAt));
  expect(Number((await h.runtime.warehouse.query('SELECT count(*) AS n FROM _glacier_walk_keys'))[0].n)).toBe(0);
}

beforeAll(async () => {
  h = await startPipelineHarness({
    edit: (config) => {
      config.streams = SNAPSHOT_STREAMS;
      // Walks of several pages and batches of one page: the crash night's walk dies with pages stored.
      config.api.pageSize = 5;
    },
    deps: (deps) => {
      const sync = deps.sync!;
      const dying: SyncPort = {
        ...sync,
        planPartitions: (input) => sync.planPartitions(input),
        readCheckpoint: (id) => sync.readCheckpoint(id),
        async syncBatch(input) {
          const result = await sync.syncBatch(input);
          if (crash && !crash.fired && input.partition.id === crash.partition && !result.done) {
            crash.fired = true;
            throw new Error('worker killed after a commit');
          }
          return result;
        },
      };
      return { ...deps, sync: dying };
    },
  });
  partitions = [...(await h.runtime.deps.sync!.planPartitions({})), ...(await h.runtime.deps.sync!.planPartitions({ discovered: true }))];
}, 120_000);

afterAll(async () => h?.close());

describe('versioned snapshot tables over nights (pipeline on the real dev server)', () => {
  it('store what changed; as of every snapshot they equal the API of that night; an idle night writes nothing; a killed walk resumes to the same versions; the lake equals the warehouse', async () => {
    const backfill = await h.run({ mode: 'backfill', exportParquet: true, maxPagesPerBatch: 1 });
    expect(backfill.partitions.filter((p) => p.state !== 'done')).toEqual([]);
    await expectTruth(backfill.snapshotAt);

    h.sim.advance(40);
    const grown = await night();
    const changed = await h.runtime.warehouse.query(`SELECT count(*) AS n FROM evm_erc20_balances WHERE snapshot_at = ${grown.snapshotAt} OR valid_to = ${grown.snapshotAt}`);
    expect(Number(changed[0].n)).toBeGreaterThan(0);

    // No growth: every walk runs, lists what it listed last night, and writes no row.
    const before = await counts();
    const idle = await night();
    expect(await counts()).toEqual(before);
    for (const def of versioned()) {
      const [{ n }] = await h.runtime.warehouse.query(`SELECT count(*) AS n FROM "${def.name}" WHERE snapshot_at = ${idle.snapshotAt} OR valid_to = ${idle.snapshotAt}`);
      expect(Number(n), def.name).toBe(0);
    }
    const walks = await h.runtime.warehouse.query(`SELECT count(*) AS n FROM _glacier_snapshot_walks WHERE snapshot_at = ${idle.snapshotAt}`);
    expect(Number(walks[0].n)).toBe(partitions.length);

    // Growth, and the walk of the partition with the most pages dies after its first batch and resumes.
    const [largest] = await h.runtime.warehouse.query("SELECT partition_id FROM _glacier_snapshot_walks WHERE stream = 'metrics.holders' ORDER BY pages DESC LIMIT 1");
    crash = { partition: String(largest.partition_id), fired: false };
    h.sim.advance(40);
    await night();
    expect(crash.fired).toBe(true);

    // Every earlier snapshot still reads what it read (and what the API answered) that night.
    for (const [x, then] of readings) expect(Object.fromEntries(await reading(x)), `as of ${x}`).toEqual(Object.fromEntries(then));
    // Minimal versions: no key has two adjacent versions with the same values.
    for (const def of versioned()) {
      const key = versionKey(def).map((k) => `"${k}"`).join(', ');
      const tracked = versionTracked(def).map((c) => `"${c}"`).join(', ');
      const [{ n }] = await h.runtime.warehouse.query(
        `SELECT count(*) AS n FROM (SELECT valid_to, lead(snapshot_at) OVER k AS next_from, ROW(${tracked}) AS v, lead(ROW(${tracked})) OVER k AS next_v FROM "${def.name}" WINDOW k AS (PARTITION BY ${key} ORDER BY snapshot_at)) WHERE valid_to = next_from AND v IS NOT DISTINCT FROM next_v`,
      );
      expect(Number(n), def.name).toBe(0);
      const [{ open }] = await h.runtime.warehouse.query(`SELECT count(*) AS open FROM (SELECT count(*) AS c FROM "${def.name}" WHERE valid_to IS NULL GROUP BY ${key}) WHERE c > 1`);
      expect(Number(open), `${def.name}: one open version per key`).toBe(0);
    }
    await lakeEqualsWarehouse();
  }, 600_000);
});

/** Every lake table, the versioned ones and the walk records included (valid_to too), equals the warehouse's, as another process reads it. */
async function lakeEqualsWarehouse(): Promise<void> {
  const copy = await readLakeElsewhere(lakeOf(h.config));
  try {
    const diff = await lakeDifferences(h.runtime.warehouse, copy.file);
    expect(differing(diff)).toEqual({});
    for (const def of [...versioned(), snapshotWalksExport]) expect(diff[def.name].rows, def.name).toBeGreaterThan(0);
  } finally {
    copy.close();
  }
}
