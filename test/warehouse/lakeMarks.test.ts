import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { exportParquet, lakeTables } from '../../activities/warehouse/export.ts';
import { lakeColumnsOf, lakeFiles as walk } from '../helpers/lakeFiles.ts';
import { lakeKeyPlaceholders } from '../../activities/warehouse/lakeKeys.ts';
import { sqlFile } from '../../activities/warehouse/sqlFile.ts';
import { drain, startUtxoHarness, type Harness } from './harness.ts';

/**
 * The export after a sync rewrites the partitions the sync's commits marked (_glacier_changed_partitions),
 * not every partition, and the lake still equals the warehouse: the follow-up updates of a merge
 * (spends marking UTXOs stored nights ago) mark what they touch. A crash between the Parquet files
 * and the transaction that records them exports again; a file missing from the lake comes back.
 */

/**
 * The tables whose rows are events a re-read page lists again as they are, and pn_utxos: its rows carry
 * the last_seen_at of the run that listed them, which its lake files leave out (lake layout 4), so a
 * row listed again with only a new last_seen_at marks no partition either.
 */
const EVENT_TABLES = ['pn_transactions', 'pn_transaction_utxos', 'pn_transaction_amounts', 'pn_utxo_spends', 'pn_transaction_rewards', 'pn_address_transactions', 'pn_utxos', 'pn_utxos_consumed'];

let h: Harness;
let out: string;
let partitions: PartitionSpec[];

const lakeFiles = () => walk(out).filter((f) => f.endsWith('.parquet'));
const marks = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq'))[0].n);

async function sync(runId: string, snapshotAt: number) {
  for (const p of partitions) await drain(h.core, p, { runId, mode: 'sync', snapshotAt });
}

/**
 * Every table with rows reads back from the lake equal to the warehouse (and no table's lake has rows
 * the warehouse lacks). Lake layout 3: a table's deferred columns are NULL in its files where deferred
 * (compared so), and a lake-only table equals its SELECT (test/warehouse/lakeSpends.test.ts compares
 * the joined views).
 */
async function lakeEqualsWarehouse() {
  for (const def of lakeTables(allTables())) {
    const from = def.lakeSource ? `(${sqlFile(def.lakeSource)})` : `"${def.name}"`;
    const [{ n }] = await h.warehouse.query(`SELECT count(*) AS n FROM ${from}`);
    const files = lakeFiles().filter((f) => f.startsWith(join(out, def.name) + '/'));
    if (Number(n) === 0) {
      expect(files, def.name).toEqual([]);
      continue;
    }
    // Row multisets compared by count, xor and sum of row hashes (an EXCEPT ALL of the wide tables would not fit the warehouse's 64 MB).
    const lake = lakeColumnsOf(def);
    const cols = lake.file.join(', ');
    const tableCols = lake.table.join(', ');
    const digest = (c: string, from: string) => `SELECT count(*)::VARCHAR || ':' || bit_xor(hash(${c}))::VARCHAR || ':' || sum(hash(${c})::HUGEINT)::VARCHAR AS d FROM ${from}`;
    const [{ d: fromLake }] = await h.warehouse.query(digest(cols, `read_parquet('${join(out, def.name, '**', '*.parquet')}', hive_partitioning = true, hive_types_autocast = false)`));
    const [{ d: table }] = await h.warehouse.query(digest(tableCols, from));
    expect(fromLake, def.name).toBe(table);
  }
}

beforeAll(async () => {
  h = await startUtxoHarness();
  out = join(h.dir, 'parquet');
  partitions = await h.core.planPartitions({});
  for (const p of partitions) await drain(h.core, p, { runId: 'b1', mode: 'backfill', snapshotAt: 1 });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('export from the commits’ marks', () => {
  it('names in every follow-up SQL file the layout of the table it marks', () => {
    const lake = lakeTables(allTables());
    for (const def of allTables()) {
      for (const file of [...(def.beforeMerge ?? []), ...(def.afterMerge ?? [])]) {
        for (const p of lakeKeyPlaceholders(sqlFile(file))) {
          const target = lake.find((t) => t.name === p.table)!;
          expect(target, `${file}: ${p.table}`).toBeDefined();
          expect({ file, partitionBy: p.partitionBy, dateFrom: p.dateFrom }).toEqual({ file, partitionBy: target.export.partitionBy, dateFrom: target.export.dateFrom });
        }
      }
    }
  });

  it("compares, where the UTXO follow-up SQL marks pn_utxos, the columns it sets that pn_utxos' files hold", () => {
    const def = allTables().find((t) => t.name === 'pn_utxos')!;
    const hidden = new Set([...def.primaryKey, ...(def.export.omit ?? []), ...(def.export.deferred?.columns ?? [])]);
    // Every column of the API's Utxo: what pn.utxos's own walk would upsert (not the key, the run's
    // last_seen_at, or _extra, which no follow-up update touches).
    const apiColumns = def.columns.map((c) => c.name).filter((c) => !def.primaryKey.includes(c) && c !== 'last_seen_at' && c !== '_extra').sort();
    for (const file of ['ops/propagateUtxoSpends.sql', 'ops/keepUtxoSpends.sql', 'ops/deriveUtxosFromTransactions.sql']) {
      const text = sqlFile(file);
      const set = [...text.matchAll(/UPDATE pn_utxos AS u\s+SET ([\s\S]*?)\nFROM/g)].flatMap((m) => m[1].split(/,\n/).map((a) => a.trim().split(/\s*=/)[0]));
      expect({ file, set: [...new Set(set)].sort() }).toEqual({ file, set: apiColumns });
      const rows = [...text.matchAll(/row\(([^)]*)\) IS DISTINCT FROM row\(([^)]*)\)/g)];
      expect(rows.length, file).toBeGreaterThan(0);
      for (const [, stored, other] of rows) {
        const names = stored.split(',').map((c) => c.trim().replace(/^u\./, ''));
        // A column the update sets and the files hold, left out here, would change a file no mark names.
        expect({ file, compared: [...names].sort() }).toEqual({ file, compared: apiColumns.filter((c) => !hidden.has(c)) });
        expect(other.split(',').length, file).toBe(names.length);
      }
    }
  });

  it('exports in full once, then only the partitions a sync changed, and the lake equals the warehouse', async () => {
    const first = await exportParquet(h.warehouse, allTables(), out);
    expect(first.fullTables).toBeGreaterThan(0);
    expect(first.files).toBeGreaterThan(0);
    expect(await marks()).toBe(0);
    const total = lakeFiles().length;

    const idle = await exportParquet(h.warehouse, allTables(), out);
    expect(idle).toMatchObject({ files: 0, fullTables: 0, deleted: 0 });

    // A sync with no growth re-reads the newest page of each list as stored: no row of an event table
    // changes, so none is marked (a mark of the batch's every row made a long history's night
    // fingerprint and stage partitions of every day a page reached back to).
    await sync('s-again', 5);
    const marked = (await h.warehouse.query('SELECT DISTINCT table_name FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq')).map((r) => String(r.table_name));
    expect(marked.filter((t) => EVENT_TABLES.includes(t))).toEqual([]);
    expect(await exportParquet(h.warehouse, allTables(), out)).toMatchObject({ fullTables: 0, deleted: 0 });
    await lakeEqualsWarehouse();

    let spentOld = 0;
    for (let night = 0; night < 6 && (night < 2 || spentOld === 0); night++) {
      const unspent = await h.warehouse.query('SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NULL');
      h.sim.advance(100);
      await sync(`s-${night}`, 10 + night);
      expect(await marks()).toBeGreaterThan(0);
      const r = await exportParquet(h.warehouse, allTables(), out);
      expect(r.fullTables).toBe(0);
      expect(r.files).toBeGreaterThan(0);
      expect(r.files).toBeLessThan(total);
      expect(await marks()).toBe(0);
      await lakeEqualsWarehouse();
      const ids = new Set(unspent.map((u) => String(u.utxo_id)));
      spentOld += (await h.warehouse.query('SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NOT NULL')).filter((u) => ids.has(String(u.utxo_id))).length;
    }
    // Some night spent a UTXO stored on an earlier night: the follow-up update marked the spend's day of
    // pn_utxo_spends (lake layout 3), and the lake still equals the warehouse.
    expect(spentOld).toBeGreaterThan(0);
  }, 120_000);

  it('exports again after a crash between the Parquet files and their record', async () => {
    h.sim.advance(100);
    await sync('crash', 50);
    const before = await marks();
    expect(before).toBeGreaterThan(0);
    await expect(
      exportParquet(h.warehouse, allTables(), out, {
        afterFiles: () => {
          throw new Error('crash after files');
        },
      }),
    ).rejects.toThrow('crash after files');
    expect(await marks()).toBe(before);
    // The files are already new, the record is not: the next export writes the marked partitions again.
    const again = await exportParquet(h.warehouse, allTables(), out);
    expect(again.fullTables).toBe(0);
    expect(again.files).toBeGreaterThan(0);
    expect(await marks()).toBe(0);
    await lakeEqualsWarehouse();
  }, 60_000);

  it('writes a file missing from the lake again (from the table, into a new generation)', async () => {
    const victim = lakeFiles().find((f) => f.includes(`${join(out, 'pn_transactions')}/`))!;
    rmSync(victim);
    const r = await exportParquet(h.warehouse, allTables(), out);
    expect(r.fullTables).toBe(0);
    expect(r.files).toBe(1);
    expect(lakeFiles()).toContain(victim);
    await lakeEqualsWarehouse();
  }, 60_000);
});
