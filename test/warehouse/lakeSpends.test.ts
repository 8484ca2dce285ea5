import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { EXPORT_MEMORY_LIMIT, exportParquet, lakeTables } from '../../activities/warehouse/export.ts';
import { LAKE_LAYOUT_VERSION, LAKE_VERSION_FILE, readLakeLayout } from '../../activities/warehouse/lakeLayout.ts';
import { createLakeViews } from '../../activities/warehouse/lakeViews.ts';
import { WORLD_SIZES } from '../../tools/simulator/index.ts';
import { drain, startHarness, type Harness } from './harness.ts';

/**
 * Lake layout 3: the spend of an emitted UTXO and the reward of a staking transaction happen after the
 * row is stored, so they live in lake-only tables dated by when they happened (pn_utxo_spends,
 * pn_transaction_rewards); pn_transaction_utxos' consumed rows are dated by their spend. A night that
 * spends a UTXO created months ago writes the spend's day, not the old month's file, and the lake read
 * through the views (`glacier sql`'s) equals the warehouse row for row.
 */

const STEPS_PER_DAY = 4;

let h: Harness;
let out: string;
let partitions: PartitionSpec[];

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

/** Every Parquet file of a lake table: its path under the table and its inode and mtime (an unchanged file keeps both: it is hard-linked into the next generation). */
function files(table: string): Map<string, string> {
  return new Map(
    walk(join(out, table))
      .filter((f) => f.endsWith('.parquet'))
      .map((f) => {
        const st = statSync(f);
        return [relative(join(out, table), f), `${st.ino}:${st.mtimeMs}`];
      }),
  );
}

const changed = (before: Map<string, string>, after: Map<string, string>) => [...after].filter(([f, id]) => before.get(f) !== id).map(([f]) => f);

async function sync(mode: 'backfill' | 'sync', runId: string, snapshotAt: number) {
  for (const p of partitions) await drain(h.core, p, { runId, mode, snapshotAt });
}

/** Rows of the warehouse table the lake view (activities/warehouse/lakeViews.ts) lacks, and the other way round (EXCEPT ALL both ways, on the key and an md5 of the whole row). */
async function viewDifferences(table: string): Promise<{ missing: number; extra: number; rows: number }> {
  const def = allTables().find((t) => t.name === table)!;
  // The comparison reads both whole (the export's limit, not the sync's 64 MB).
  const release = await h.warehouse.raiseMemory(EXPORT_MEMORY_LIMIT);
  const conn = await h.warehouse.connect();
  try {
    await conn.run('DETACH DATABASE IF EXISTS lake');
    await conn.run("ATTACH ':memory:' AS lake");
    await createLakeViews(conn, out, lakeTables(allTables()), { database: 'lake' });
    const row = (alias: string) =>
      `SELECT ${def.primaryKey.map((k) => `CAST(${alias}."${k}" AS VARCHAR) AS "${k}"`).join(', ')}, md5(concat_ws('|', ${def.columns.filter((c) => !def.export.omit?.includes(c.name)).map((c) => `coalesce(CAST(${alias}."${c.name}" AS VARCHAR), '<null>')`).join(', ')})) AS row_md5 FROM `;
    const count = async (sql: string) => Number((await conn.runAndReadAll(sql)).getRowObjectsJS()[0].n);
    const warehouse = `${row('w')} "${table}" AS w`;
    const lake = `${row('l')} lake."${table}" AS l`;
    return {
      missing: await count(`SELECT count(*) AS n FROM (${warehouse} EXCEPT ALL ${lake})`),
      extra: await count(`SELECT count(*) AS n FROM (${lake} EXCEPT ALL ${warehouse})`),
      rows: await count(`SELECT count(*) AS n FROM lake."${table}"`),
    };
  } finally {
    await conn.run('DETACH DATABASE IF EXISTS lake');
    conn.closeSync();
    await release();
  }
}

async function lakeViewsEqualWarehouse(tables = ['pn_transaction_utxos', 'pn_transactions', 'pn_utxos']) {
  for (const table of tables) {
    const [{ n }] = await h.warehouse.query(`SELECT count(*) AS n FROM "${table}"`);
    expect(await viewDifferences(table), table).toEqual({ missing: 0, extra: 0, rows: Number(n) });
  }
}

beforeAll(async () => {
  h = await startHarness({
    sim: { size: { ...WORLD_SIZES.tiny, stepsPerDay: STEPS_PER_DAY } },
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
      return { streams: ['pn.transactions', 'pn.utxos'], networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 6) }] };
    },
  });
  out = join(h.dir, 'parquet');
  partitions = await h.core.planPartitions({});
  await sync('backfill', 'b1', 1);
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe('lake layout 3: spends and rewards dated by when they happened', () => {
  it('reads back through the lake views equal to the warehouse (EXCEPT ALL both ways), spends and rewards included', async () => {
    const first = await exportParquet(h.warehouse, allTables(), out);
    expect(first.fullTables).toBeGreaterThan(0);
    const [{ spends, rewards }] = await h.warehouse.query(
      "SELECT (SELECT count(*) FROM pn_transaction_utxos WHERE direction = 'emitted' AND consuming_tx_hash IS NOT NULL) AS spends, (SELECT count(*) FROM pn_transactions WHERE reward_tx_hash IS NOT NULL) AS rewards",
    );
    expect(Number(spends)).toBeGreaterThan(0);
    expect(Number(rewards)).toBeGreaterThan(0);
    // The base files hold no spend of an emitted row: it is in pn_utxo_spends.
    const [{ n }] = await h.warehouse.query(`SELECT count(*) AS n FROM read_parquet('${join(out, 'pn_transaction_utxos', '**', '*.parquet')}') WHERE direction = 'emitted' AND consuming_tx_hash IS NOT NULL`);
    expect(Number(n)).toBe(0);
    // Nor do pn_utxos' files (lake layout 4): the spends are in pn_utxos_consumed.
    const [u] = await h.warehouse.query(
      `SELECT (SELECT count(*) FROM pn_utxos WHERE consuming_tx_hash IS NOT NULL) AS spent, (SELECT count(*) FROM read_parquet('${join(out, 'pn_utxos', '**', '*.parquet')}') WHERE consuming_tx_hash IS NOT NULL OR credentials IS NOT NULL) AS n`,
    );
    expect(Number(u.spent)).toBeGreaterThan(0);
    expect(Number(u.n)).toBe(0);
    await lakeViewsEqualWarehouse();
  }, 120_000);

  it('a night that spends a UTXO created in an older month rewrites no file of that month, only the spend’s day', async () => {
    let oldSpent = 0;
    let oldUtxosSpent = 0;
    for (let night = 0; night < 12 && oldSpent === 0; night++) {
      const before = { utxos: files('pn_transaction_utxos'), spends: files('pn_utxo_spends'), pnUtxos: files('pn_utxos'), consumed: files('pn_utxos_consumed') };
      const unspentUtxos = await h.warehouse.query(
        "SELECT utxo_id, strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m') AS month, (SELECT max(strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m')) FROM pn_utxos) AS newest FROM pn_utxos WHERE consuming_tx_hash IS NULL",
      );
      const unspent = await h.warehouse.query("SELECT tx_hash, item_index FROM pn_transaction_utxos WHERE direction = 'emitted' AND consuming_tx_hash IS NULL");
      h.sim.advance(STEPS_PER_DAY);
      await sync('sync', `n${night}`, 10 + night);
      const r = await exportParquet(h.warehouse, allTables(), out);
      expect(r.fullTables).toBe(0);
      // Emitted rows stored unspent before this night, spent now, whose own file is a compacted past month.
      const ids = new Set(unspent.map((u) => `${String(u.tx_hash)}/${String(u.item_index)}`));
      const spentNow = (
        await h.warehouse.query(
          `SELECT tx_hash, item_index, strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m') AS month, strftime(to_timestamp(consuming_block_timestamp) AT TIME ZONE 'UTC', '%Y-%m-%d') AS day,
             (SELECT max(strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m')) FROM pn_transaction_utxos) AS newest
           FROM pn_transaction_utxos WHERE direction = 'emitted' AND consuming_tx_hash IS NOT NULL`,
        )
      ).filter((u) => ids.has(`${String(u.tx_hash)}/${String(u.item_index)}`) && String(u.month) < String(u.newest));
      if (spentNow.length === 0) continue;
      oldSpent = spentNow.length;
      const oldMonths = new Set(spentNow.map((u) => `month=${String(u.month)}/`));
      // Those months are compacted files of the lake (month.parquet), there before this night.
      for (const m of oldMonths) expect([...before.utxos.keys()].some((f) => f.includes(m) && f.endsWith('/month.parquet')), m).toBe(true);
      const rewritten = changed(before.utxos, files('pn_transaction_utxos'));
      expect(rewritten.filter((f) => [...oldMonths].some((m) => f.includes(m))), 'files of the old months rewritten').toEqual([]);
      // The spends table wrote the spends' own days (and nothing of an older month).
      const days = new Set(spentNow.map((u) => `day-${String(u.day)}`));
      const spendFiles = changed(before.spends, files('pn_utxo_spends'));
      expect(spendFiles.length).toBeGreaterThan(0);
      for (const f of spendFiles) expect(f, 'a spends file of another day').toMatch(/day-\d{4}-\d{2}-\d{2}\.parquet$/);
      expect(spendFiles.some((f) => [...days].some((d) => f.includes(d)))).toBe(true);
      // pn_utxos the same (lake layout 4): the UTXOs of an older month spent this night leave that month's files as they were.
      const oldUtxos = new Map(unspentUtxos.filter((u) => String(u.month) < String(u.newest)).map((u) => [String(u.utxo_id), `month=${String(u.month)}/`]));
      const spentUtxos = (await h.warehouse.query('SELECT utxo_id FROM pn_utxos WHERE consuming_tx_hash IS NOT NULL')).map((u) => String(u.utxo_id)).filter((id) => oldUtxos.has(id));
      oldUtxosSpent += spentUtxos.length;
      if (spentUtxos.length > 0) {
        const months = new Set(spentUtxos.map((id) => oldUtxos.get(id)!));
        expect(changed(before.pnUtxos, files('pn_utxos')).filter((f) => [...months].some((m) => f.includes(m))), 'pn_utxos files of the old months rewritten').toEqual([]);
        expect(changed(before.consumed, files('pn_utxos_consumed')).length).toBeGreaterThan(0);
      }
      await lakeViewsEqualWarehouse();
    }
    expect(oldSpent, 'some night spent a UTXO of an older month').toBeGreaterThan(0);
    expect(oldUtxosSpent, 'some night spent a pn_utxos UTXO of an older month').toBeGreaterThan(0);
  }, 240_000);

  it('export --tables of a base table brings its lake-only tables along', async () => {
    const before = files('pn_utxo_spends');
    h.sim.advance(STEPS_PER_DAY);
    await sync('sync', 'tables', 40);
    const r = await exportParquet(h.warehouse, allTables(), out, { tables: ['pn_transactions', 'pn_transaction_utxos'] });
    expect(r.fullTables).toBe(0);
    expect(changed(before, files('pn_utxo_spends')).length, 'spends files written').toBeGreaterThan(0);
    // pn_utxos was not exported: its lake is a night behind.
    await lakeViewsEqualWarehouse(['pn_transaction_utxos', 'pn_transactions']);
  }, 120_000);

  it('export --full derives the lake-only tables again when their files are gone', async () => {
    for (const table of ['pn_utxo_spends', 'pn_transaction_rewards']) for (const f of walk(join(out, table)).filter((x) => x.endsWith('.parquet'))) rmSync(f);
    const r = await exportParquet(h.warehouse, allTables(), out, { full: true });
    expect(r.files).toBeGreaterThan(0);
    expect(files('pn_utxo_spends').size).toBeGreaterThan(0);
    expect(files('pn_transaction_rewards').size).toBeGreaterThan(0);
    await lakeViewsEqualWarehouse();
  }, 120_000);

  it('converts a layout-2 lake at the next export: the two base tables again in full, the lake-only tables written', async () => {
    // A layout-2 lake as the previous release left it: version file 2, the base tables recorded with
    // another layout and fingerprints over every column, no lake-only table.
    writeFileSync(join(out, LAKE_VERSION_FILE), '{"layoutVersion":2}\n');
    for (const table of ['pn_utxo_spends', 'pn_transaction_rewards']) {
      rmSync(join(out, table), { force: true });
      rmSync(join(out, '.generations', table), { recursive: true, force: true });
    }
    await h.warehouse.withWriter(async (wr) => {
      await wr.run("DELETE FROM _glacier_lake_tables WHERE table_name IN ('pn_utxo_spends', 'pn_transaction_rewards')");
      await wr.run("DELETE FROM _glacier_exports WHERE table_name IN ('pn_utxo_spends', 'pn_transaction_rewards')");
      await wr.run("UPDATE _glacier_lake_tables SET layout = 'layout-2' WHERE table_name IN ('pn_transaction_utxos', 'pn_transactions')");
      await wr.run("UPDATE _glacier_exports SET fingerprint = 'layout-2' WHERE table_name IN ('pn_transaction_utxos', 'pn_transactions')");
    });
    const before = files('pn_transaction_utxos');
    const r = await exportParquet(h.warehouse, allTables(), out);
    expect(r.fullTables).toBe(4);
    expect(readLakeLayout(out)).toBe(LAKE_LAYOUT_VERSION);
    expect(changed(before, files('pn_transaction_utxos')).length).toBe(before.size);
    expect(files('pn_utxo_spends').size).toBeGreaterThan(0);
    expect(files('pn_transaction_rewards').size).toBeGreaterThan(0);
    await lakeViewsEqualWarehouse();
  }, 120_000);
});
