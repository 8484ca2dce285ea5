import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { exportLake, lakeTables } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { sqlFile } from '../../activities/warehouse/sqlFile.ts';
import { lakeOf } from '../../worker/paths.ts';

/** The `{lake_key:<table>:<alias>:<partition columns>:<date column>}` placeholders of a SQL text (lakeKeys.ts expandLakeKeys). */
function lakeKeyPlaceholders(sql: string): { table: string; alias: string; partitionBy: string[]; dateFrom?: string }[] {
  return [...sql.matchAll(/\{lake_key:([a-z_0-9]+):([a-z_0-9]+):([a-z_0-9,]*):([a-z_0-9]*)\}/g)].map((m) => ({ table: m[1], alias: m[2], partitionBy: m[3] ? m[3].split(',') : [], dateFrom: m[4] || undefined }));
}
import { differing, lakeDifferences, readLakeElsewhere } from '../helpers/lakeCompare.ts';
import { drain, startUtxoHarness, type Harness } from '../warehouse/harness.ts';

/**
 * The export after a sync applies the partitions the sync's commits marked (_glacier_changed_partitions)
 * and the lake still equals the warehouse: the follow-up updates of a merge (spends marking UTXOs and
 * outputs stored nights ago, rewards their staking transactions) mark what they touch. A crash after
 * the lake's commit and before the marks are cleared changes nothing the next export does not repair.
 */

/** Tables whose rows are events a re-read page lists again as they are: a sync without growth marks none. */
const EVENT_TABLES = ['pn_transactions', 'pn_transaction_utxos', 'pn_transaction_amounts', 'pn_address_transactions'];

let h: Harness;
let lake: LakeSettings;
let partitions: PartitionSpec[];

const marks = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq'))[0].n);

async function sync(runId: string, snapshotAt: number) {
  for (const p of partitions) await drain(h.core, p, { runId, mode: 'sync', snapshotAt });
}

async function lakeEqualsWarehouse() {
  const copy = await readLakeElsewhere(lake);
  try {
    expect(differing(await lakeDifferences(h.warehouse, copy.file))).toEqual({});
  } finally {
    copy.close();
  }
}

beforeAll(async () => {
  h = await startUtxoHarness();
  lake = lakeOf(h.config);
  partitions = await h.core.planPartitions({});
  for (const p of partitions) await drain(h.core, p, { runId: 'b1', mode: 'backfill', snapshotAt: 1 });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('export from the commits’ marks', () => {
  it('names in every follow-up SQL file the partitions of the table it marks', () => {
    const lakeDefs = lakeTables(allTables());
    for (const def of allTables()) {
      for (const file of [...(def.beforeMerge ?? []), ...(def.afterMerge ?? [])]) {
        for (const p of lakeKeyPlaceholders(sqlFile(file))) {
          const target = lakeDefs.find((t) => t.name === p.table)!;
          expect(target, `${file}: ${p.table}`).toBeDefined();
          expect({ file, partitionBy: p.partitionBy, dateFrom: p.dateFrom }).toEqual({ file, partitionBy: target.export.partitionBy, dateFrom: target.export.dateFrom });
        }
      }
    }
  });

  it('sets, in every UTXO follow-up update of pn_utxos, every column of the API’s Utxo', () => {
    const def = allTables().find((t) => t.name === 'pn_utxos')!;
    // What pn.utxos's own walk would upsert (not the key, the run's last_seen_at, or _extra, which no follow-up update touches).
    const apiColumns = def.columns.map((c) => c.name).filter((c) => !def.primaryKey.includes(c) && c !== 'last_seen_at' && c !== '_extra').sort();
    for (const file of ['ops/propagateUtxoSpends.sql', 'ops/keepUtxoSpends.sql', 'ops/deriveUtxosFromTransactions.sql']) {
      const set = [...sqlFile(file).matchAll(/UPDATE pn_utxos AS u\s+SET ([\s\S]*?)\nFROM/g)].flatMap((m) => m[1].split(/,\n/).map((a) => a.trim().split(/\s*=/)[0]));
      expect({ file, set: [...new Set(set)].sort() }).toEqual({ file, set: apiColumns });
    }
  });

  it('builds the lake once, then applies only what a sync changed, and the lake equals the warehouse', async () => {
    const first = await exportLake(h.warehouse, allTables(), lake);
    expect(first.fullTables).toBeGreaterThan(0);
    expect(await marks()).toBe(0);
    expect(await exportLake(h.warehouse, allTables(), lake)).toMatchObject({ tables: 0, fullTables: 0, deleted: 0, inserted: 0 });

    // A sync with no growth re-reads the newest page of each list as stored: no row of an event table
    // changes, so none is marked (UTXOs listed again carry the run's last_seen_at: those change).
    await sync('s-again', 5);
    const marked = (await h.warehouse.query('SELECT DISTINCT table_name FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq')).map((r) => String(r.table_name));
    expect(marked.filter((t) => EVENT_TABLES.includes(t))).toEqual([]);
    expect(await exportLake(h.warehouse, allTables(), lake)).toMatchObject({ fullTables: 0 });
    await lakeEqualsWarehouse();

    let spentOld = 0;
    for (let night = 0; night < 6 && (night < 2 || spentOld === 0); night++) {
      const unspent = await h.warehouse.query('SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NULL');
      h.sim.advance(100);
      await sync(`s-${night}`, 10 + night);
      expect(await marks()).toBeGreaterThan(0);
      const r = await exportLake(h.warehouse, allTables(), lake);
      expect(r.fullTables).toBe(0);
      expect(r.tables).toBeGreaterThan(0);
      expect(await marks()).toBe(0);
      await lakeEqualsWarehouse();
      const ids = new Set(unspent.map((u) => String(u.utxo_id)));
      spentOld += (await h.warehouse.query('SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NOT NULL')).filter((u) => ids.has(String(u.utxo_id))).length;
    }
    // Some night spent a UTXO stored on an earlier night: the follow-up update marked its row's
    // partition, and the lake's row has the spend.
    expect(spentOld).toBeGreaterThan(0);
  }, 600_000);

  it('repairs a crash after the lake’s commit and before the marks are cleared', async () => {
    h.sim.advance(100);
    await sync('crash', 50);
    const before = await marks();
    expect(before).toBeGreaterThan(0);
    const crash = new Error('crash after the commit');
    await expect(exportLake(h.warehouse, allTables(), lake, { hook: (step) => { if (step === 'committed') throw crash; } })).rejects.toThrow('crash after the commit');
    expect(await marks()).toBe(before);
    // The lake holds the night already: applying the marks again changes no row, and clears them.
    expect(await exportLake(h.warehouse, allTables(), lake)).toMatchObject({ tables: 0, deleted: 0, inserted: 0, fullTables: 0 });
    expect(await marks()).toBe(0);
    await lakeEqualsWarehouse();
  }, 300_000);
});
