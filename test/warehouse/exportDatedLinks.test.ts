import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { exportParquet } from '../../activities/warehouse/export.ts';
import { partitionColumns } from '../../activities/warehouse/lakeKeys.ts';
import { WORLD_SIZES } from '../../tools/simulator/index.ts';
import { drain, firstChainTxHashes, startHarness, type Harness } from './harness.ts';

/**
 * The link tables (evm_address_transactions, pn_address_transactions) and the lists of a transaction
 * detail (evm_internal_transactions, evm_tx_erc20/721/1155_transfers, evm_teleporter_messages) carry
 * their transaction's block_timestamp and are dated in the lake (schema version 5), so a night
 * rewrites the days it changed, not the chain's whole table: new rows get the column from the item,
 * a sync's export rewrites exactly the partitions whose rows changed (the other files keep their
 * inode and mtime), and the lake equals the tables.
 */

const STEPS_PER_DAY = 48;
const DATED = ['evm_address_transactions', 'pn_address_transactions', 'evm_internal_transactions', 'evm_tx_erc20_transfers', 'evm_tx_erc721_transfers', 'evm_tx_erc1155_transfers', 'evm_teleporter_messages'];
const CHILDREN = DATED.filter((t) => t.startsWith('evm_') && t !== 'evm_address_transactions');

let h: Harness;
let out: string;
let partitions: PartitionSpec[];

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const count = async (sql: string) => Number((await h.warehouse.query(sql))[0].n);

/** Every Parquet file of a table: its path under the table and its inode and mtime. */
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

/**
 * Each lake file's fingerprint (row count and hashes), by its path under the table as lake layout 2
 * names it: the group's partition columns, `month=`, then `day-<day>.parquet` for a day of the
 * group's newest month and `month.parquet` for an earlier month (one file holds its days).
 */
async function fileDigests(table: string): Promise<Map<string, string>> {
  const def = tableByName(table)!;
  const keys = partitionColumns(def);
  const group = keys.slice(0, -1);
  const g = group.map((_, i) => `p${i}`);
  const cols = def.columns.map((c) => `"${c.name}"`).join(', ');
  const rows = await h.warehouse.query(
    `WITH r AS (SELECT ${[...group.map((k, i) => `${k.expr} AS p${i}`), `${keys.at(-1)!.expr} AS day`, `hash(${cols}) AS hh`].join(', ')} FROM "${table}"),
     f AS (SELECT *, substr(day, 1, 7) AS month, max(substr(day, 1, 7)) OVER (${g.length ? `PARTITION BY ${g.join(', ')}` : ''}) AS newest FROM r)
     SELECT ${[...g, 'month'].join(', ')}, CASE WHEN month = newest THEN 'day-' || day || '.parquet' ELSE 'month.parquet' END AS file,
       count(*)::VARCHAR || ':' || bit_xor(hh)::VARCHAR || ':' || sum(hh::HUGEINT)::VARCHAR AS d
     FROM f GROUP BY ALL`,
  );
  return new Map(rows.map((r) => [[...group.map((k, i) => `${k.name}=${String(r[`p${i}`])}`), `month=${String(r.month)}`, String(r.file)].join('/'), String(r.d)]));
}

/** The table read back from its lake files equals the table (row multisets by count and hashes). */
async function lakeEquals(table: string) {
  const def = tableByName(table)!;
  const cols = def.columns.map((c) => `CAST("${c.name}" AS VARCHAR)`).join(', ');
  const digest = (from: string) => `SELECT count(*)::VARCHAR || ':' || bit_xor(hash(${cols}))::VARCHAR || ':' || sum(hash(${cols})::HUGEINT)::VARCHAR AS d FROM ${from}`;
  const [{ d: lake }] = await h.warehouse.query(digest(`read_parquet('${join(out, table, '**', '*.parquet')}', hive_partitioning = true, hive_types_autocast = false)`));
  const [{ d: rows }] = await h.warehouse.query(digest(`"${table}"`));
  expect(lake, table).toBe(rows);
}

async function sync(mode: 'backfill' | 'sync', runId: string, snapshotAt: number) {
  for (const p of partitions) await drain(h.core, p, { runId, mode, snapshotAt });
}

beforeAll(async () => {
  h = await startHarness({
    sim: { size: { ...WORLD_SIZES.tiny, stepsPerDay: STEPS_PER_DAY } },
    config: async (sim) => {
      const evm = sim.world.describe().evm as unknown as { addresses: string[] };
      const { chainId, hashes } = await firstChainTxHashes(sim, 400);
      const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
      return {
        streams: ['evm.address_transactions', 'evm.transaction_details', 'pn.transactions'],
        evmChains: [{ chainId, addresses: evm.addresses.slice(0, 3), transactions: hashes }],
        networks: [{ network: 'mainnet', chains: ['p-chain'], addresses: p.addresses.slice(0, 4) }],
      };
    },
  });
  out = join(h.dir, 'parquet');
  partitions = await h.core.planPartitions({});
  await sync('backfill', 'b1', 1);
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe('dated link and detail-list tables (schema version 5)', () => {
  it('new rows carry their transaction’s block_timestamp', async () => {
    expect(await count('SELECT count(*) AS n FROM evm_address_transactions')).toBeGreaterThan(0);
    expect(await count('SELECT count(*) AS n FROM evm_address_transactions WHERE block_timestamp IS NULL')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM evm_address_transactions AS a JOIN evm_transactions AS t USING (chain_id, tx_hash) WHERE a.block_timestamp IS DISTINCT FROM t.block_timestamp')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM pn_address_transactions WHERE block_timestamp IS NULL')).toBe(0);
    let children = 0;
    for (const table of CHILDREN) {
      children += await count(`SELECT count(*) AS n FROM "${table}"`);
      expect(await count(`SELECT count(*) AS n FROM "${table}" AS c LEFT JOIN evm_transaction_details AS d USING (chain_id, tx_hash) WHERE c.block_timestamp IS NULL OR c.block_timestamp IS DISTINCT FROM d.block_timestamp`), table).toBe(0);
    }
    expect(children).toBeGreaterThan(0);
  });

  it('are exported by day, and a sync’s export rewrites exactly the days whose rows changed', async () => {
    await exportParquet(h.warehouse, allTables(), out);
    const before = new Map<string, Map<string, string>>();
    const digests = new Map<string, Map<string, string>>();
    for (const table of DATED) {
      const rows = await count(`SELECT count(*) AS n FROM "${table}"`);
      const f = rows ? files(table) : new Map<string, string>();
      if (rows) expect([...f.keys()].every((p) => /\/month=\d{4}-\d{2}\/(day-\d{4}-\d{2}-\d{2}|month)\.parquet$/.test(p)), table).toBe(true);
      before.set(table, f);
      digests.set(table, await fileDigests(table));
      if (rows) await lakeEquals(table);
    }
    // Several days per link table, so "only the changed days" can be told from "all of them".
    expect(before.get('evm_address_transactions')!.size).toBeGreaterThan(2);
    expect(before.get('pn_address_transactions')!.size).toBeGreaterThan(1);

    h.sim.advance(STEPS_PER_DAY);
    await sync('sync', 's1', 2);
    const r = await exportParquet(h.warehouse, allTables(), out);
    expect(r.fullTables).toBe(0);
    let rewritten = 0;
    let kept = 0;
    for (const table of DATED) {
      const now = await fileDigests(table);
      const changed = [...now].filter(([p, d]) => digests.get(table)!.get(p) !== d).map(([p]) => p).sort();
      const after = now.size ? files(table) : new Map<string, string>();
      const touched = [...after].filter(([p, id]) => before.get(table)!.get(p) !== id).map(([p]) => p).sort();
      expect(touched, table).toEqual(changed);
      rewritten += touched.length;
      kept += after.size - touched.length;
      if (now.size) await lakeEquals(table);
    }
    expect(rewritten).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
  }, 120_000);
});
