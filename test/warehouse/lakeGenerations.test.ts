import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { exportParquet } from '../../activities/warehouse/export.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import { GENERATION_MARKER, GENERATIONS_DIR } from '../../activities/warehouse/lakeGenerations.ts';
import { LAKE_LAYOUT_VERSION, LAKE_VERSION_FILE } from '../../activities/warehouse/lakeLayout.ts';
import { lakeFiles } from '../helpers/lakeFiles.ts';

/**
 * Lake layout 2: past months compacted into one file per group, every export published by one
 * rename of the table's link (a reader of the link sees one whole generation), a crash before the
 * swap leaves the old lake readable and the next export completes it, and a layout-1 lake converts.
 */

const DAY = 86_400;
const blocks = tableByName('evm_blocks')!;
const CHAINS = ['43114', '43113'];
let dir: string;
let out: string;
let warehouse: Warehouse;
let reader: DuckDBConnection;
let nextBlock = 1;

/** Commits one day of blocks (3 per chain) at `day` ('YYYY-MM-DD'). */
async function addDay(day: string): Promise<void> {
  const t0 = Date.parse(`${day}T00:00:00Z`) / 1000;
  const rows = CHAINS.flatMap((chain_id) => [0, 1, 2].map((i) => ({ chain_id, block_number: BigInt(nextBlock + i), block_hash: `0x${chain_id}-${nextBlock + i}`, block_timestamp: BigInt(t0 + i * 3600), tx_count: i })));
  nextBlock += 3;
  await warehouse.commitBatch([rowsToColumns(blocks, rows)], { partitionId: `test/${day}`, stream: 'evm.blocks', pageToken: null, cursor: {}, rows: rows.length, pages: 1, complete: true });
}

const exportBlocks = (options: Parameters<typeof exportParquet>[3] = {}) => exportParquet(warehouse, allTables(), out, { tables: ['evm_blocks'], ...options });
const tableRows = async () => Number((await warehouse.query('SELECT count(*) AS n FROM evm_blocks'))[0].n);

/** Rows, distinct keys and a digest of the lake's evm_blocks as one reader sees them (`resolve`: through the resolved link). */
async function readLake(resolve: boolean): Promise<{ rows: number; keys: number; digest: string }> {
  const base = resolve ? realpathSync(join(out, 'evm_blocks')) : join(out, 'evm_blocks');
  const [r] = (
    await reader.runAndReadAll(
      `SELECT count(*)::BIGINT AS n, count(DISTINCT (chain_id, block_number))::BIGINT AS k, coalesce(sum(hash(chain_id, block_number, block_hash)::HUGEINT), 0)::VARCHAR AS d FROM read_parquet('${base}/**/*.parquet', hive_partitioning = true, hive_types_autocast = false)`,
    )
  ).getRowObjectsJS();
  return { rows: Number(r.n), keys: Number(r.k), digest: String(r.d) };
}

async function tableDigest(): Promise<string> {
  return String((await warehouse.query('SELECT coalesce(sum(hash(chain_id, block_number, block_hash)::HUGEINT), 0)::VARCHAR AS d FROM evm_blocks'))[0].d);
}

const monthFiles = (chain: string, month: string) => readdirSync(join(out, 'evm_blocks', `chain_id=${chain}`, `month=${month}`)).sort();
const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY * 1000).toISOString().slice(0, 10));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-lakegen-'));
  out = join(dir, 'parquet');
  warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
  reader = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(async () => {
  reader?.closeSync();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lake layout 2', () => {
  it('keeps a day file per day of the current month and compacts a past month into one file per group', async () => {
    for (const day of days('2026-10-28', 4)) await addDay(day);
    await exportBlocks();
    expect(lstatSync(join(out, 'evm_blocks')).isSymbolicLink()).toBe(true);
    for (const chain of CHAINS) expect(monthFiles(chain, '2026-10')).toEqual(['day-2026-10-28.parquet', 'day-2026-10-29.parquet', 'day-2026-10-30.parquet', 'day-2026-10-31.parquet']);

    for (const day of days('2026-11-01', 2)) await addDay(day);
    const r = await exportBlocks();
    // Two new days and one compacted month per chain.
    expect(r.files).toBe(CHAINS.length * 3);
    for (const chain of CHAINS) {
      expect(monthFiles(chain, '2026-10')).toEqual(['month.parquet']);
      expect(monthFiles(chain, '2026-11')).toEqual(['day-2026-11-01.parquet', 'day-2026-11-02.parquet']);
    }
    expect(await readLake(false)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
    // The month key reads as text, and one day is the month key plus the timestamp.
    const [oct30] = (
      await reader.runAndReadAll(
        `SELECT count(*)::BIGINT AS n FROM read_parquet('${join(out, 'evm_blocks')}/**/*.parquet', hive_partitioning = true) WHERE month = '2026-10' AND block_timestamp >= ${Date.parse('2026-10-30T00:00:00Z') / 1000} AND block_timestamp < ${Date.parse('2026-10-31T00:00:00Z') / 1000}`,
      )
    ).getRowObjectsJS();
    expect(Number(oct30.n)).toBe(CHAINS.length * 3);
    // The generation before stays for readers that resolved the link; none older.
    expect(readdirSync(join(out, GENERATIONS_DIR, 'evm_blocks')).filter((n) => n.startsWith('g'))).toHaveLength(2);
  });

  it('rewrites a compacted month when one of its days changes, from the table', async () => {
    const t = Date.parse('2026-10-29T12:00:00Z') / 1000;
    await warehouse.commitBatch([rowsToColumns(blocks, [{ chain_id: CHAINS[0], block_number: 999_999n, block_hash: '0xlate', block_timestamp: BigInt(t) }])], {
      partitionId: 'test/late',
      stream: 'evm.blocks',
      pageToken: null,
      cursor: {},
      rows: 1,
      pages: 1,
      complete: true,
    });
    const r = await exportBlocks();
    expect(r.files).toBe(1);
    expect(monthFiles(CHAINS[0], '2026-10')).toEqual(['month.parquet']);
    expect(await readLake(false)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
  });

  it('a reader during repeated exports and compactions sees one whole generation: no duplicate key, no missing row', async () => {
    // Rows of the table at each published export: a reader of the resolved link must see one of them.
    const published = new Set<number>([await tableRows()]);
    let done = false;
    const seen = { resolved: 0, raw: 0, rawErrors: 0 };
    const bad: string[] = [];
    const loop = (async () => {
      while (!done) {
        const got = await readLake(true);
        seen.resolved++;
        if (got.rows !== got.keys || !published.has(got.rows)) bad.push(`resolved: ${JSON.stringify(got)}`);
        // Through the link itself: each file is opened through the link when read, so a query that
        // lists the old generation may find a file gone after a swap (an error, retried by the
        // analyst). These rows never change day, so what it reads never holds a key twice.
        try {
          const raw = await readLake(false);
          seen.raw++;
          if (raw.rows !== raw.keys) bad.push(`raw: ${JSON.stringify(raw)}`);
        } catch {
          seen.rawErrors++;
        }
      }
    })();
    try {
      for (const day of days('2026-11-03', 36)) {
        await addDay(day);
        const rows = await tableRows();
        published.add(rows);
        await exportBlocks();
      }
    } finally {
      done = true;
      await loop;
    }
    expect(bad).toEqual([]);
    expect(seen.resolved).toBeGreaterThan(5);
    expect(await readLake(true)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
    for (const chain of CHAINS) expect(monthFiles(chain, '2026-11')).toEqual(['month.parquet']);
    process.stderr.write(`lake reader during 36 exports: ${JSON.stringify(seen)}\n`);
  }, 120_000);

  it('a crash between building a generation and its swap leaves the old lake readable; the next export completes it', async () => {
    const before = await readLake(true);
    const link = realpathSync(join(out, 'evm_blocks'));
    await addDay('2026-12-09');
    await expect(
      exportBlocks({
        beforeClaim: () => {
          throw new Error('crash before the swap');
        },
      }),
    ).rejects.toThrow('crash before the swap');
    expect(realpathSync(join(out, 'evm_blocks'))).toBe(link);
    expect(await readLake(true)).toEqual(before);
    expect(readdirSync(join(out, GENERATIONS_DIR, 'evm_blocks')).some((n) => n.startsWith('.build.'))).toBe(true);
    const marks = Number((await warehouse.query("SELECT count(*) AS n FROM _glacier_changed_partitions WHERE table_name = 'evm_blocks' AND exported_seq IS DISTINCT FROM seq"))[0].n);
    expect(marks).toBeGreaterThan(0);

    const r = await exportBlocks();
    expect(r.files).toBeGreaterThan(0);
    expect(await readLake(true)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
    expect(readdirSync(join(out, GENERATIONS_DIR, 'evm_blocks')).some((n) => n.startsWith('.build.'))).toBe(false);
  });

  it('converts a layout-1 lake (date= directories under the table) at the next export', async () => {
    // The lake 0.1.0 wrote: no version file, one data.parquet per chain and day directly under the table.
    rmSync(out, { recursive: true, force: true });
    for (const chain of CHAINS) {
      for (const row of await warehouse.query(`SELECT DISTINCT strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m-%d') AS d FROM evm_blocks WHERE chain_id = ?`, [chain])) {
        const part = join(out, 'evm_blocks', `chain_id=${chain}`, `date=${String(row.d)}`);
        mkdirSync(part, { recursive: true });
        const cols = blocks.columns.filter((c) => c.name !== 'chain_id').map((c) => `"${c.name}"`).join(', ');
        await warehouse.query(`COPY (SELECT ${cols} FROM evm_blocks WHERE chain_id = '${chain}' AND strftime(to_timestamp(block_timestamp) AT TIME ZONE 'UTC', '%Y-%m-%d') = '${String(row.d)}') TO '${join(part, 'data.parquet')}' (FORMAT parquet)`);
      }
    }
    mkdirSync(join(out, '.tmp'));
    await addDay('2026-12-10');
    const r = await exportBlocks();
    expect(r.fullTables).toBe(1);
    expect(JSON.parse(readFileSync(join(out, LAKE_VERSION_FILE), 'utf8'))).toEqual({ layoutVersion: LAKE_LAYOUT_VERSION });
    expect(lstatSync(join(out, 'evm_blocks')).isSymbolicLink()).toBe(true);
    expect(lakeFiles(out).filter((f) => f.includes('date='))).toEqual([]);
    expect(existsSync(join(out, '.tmp'))).toBe(false);
    expect(await readLake(true)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
    // Past months are one file per chain, December's days one file each.
    for (const chain of CHAINS) {
      expect(monthFiles(chain, '2026-10')).toEqual(['month.parquet']);
      expect(monthFiles(chain, '2026-11')).toEqual(['month.parquet']);
      expect(monthFiles(chain, '2026-12')).toEqual(days('2026-12-01', 10).map((d) => `day-${d}.parquet`));
    }
  });

  it('recycles the oldest kept generation: a night relinks and fsyncs what changed, not every file', async () => {
    const gensDir = join(out, GENERATIONS_DIR, 'evm_blocks');
    const generations = () => readdirSync(gensDir).filter((n) => /^g\d+$/.test(n)).sort();
    const marker = (g: string) => JSON.parse(readFileSync(join(gensDir, g, GENERATION_MARKER), 'utf8')) as { generation: number; files?: Record<string, number> };
    const inodes = (g: string) => new Map(Object.keys(marker(g).files ?? {}).map((f) => [f, statSync(join(gensDir, g, f)).ino]));
    for (const day of ['2026-12-11', '2026-12-12']) {
      await addDay(day);
      await exportBlocks();
    }
    // The link's generation, the one before it (readers), and the oldest (the next build's to recycle).
    const [oldest, previous, current] = generations();
    expect(generations()).toHaveLength(3);
    expect(realpathSync(join(out, 'evm_blocks'))).toBe(realpathSync(join(gensDir, current)));
    const recycledDir = statSync(join(gensDir, oldest)).ino;
    const before = inodes(current);
    const previousFiles = inodes(previous);

    await addDay('2026-12-13');
    const r = await exportBlocks();
    const next = generations().at(-1)!;
    expect(generations()).toEqual([previous, current, next]);
    // The oldest generation's directory became the new one; it was not built afresh.
    expect(statSync(join(gensDir, next)).ino).toBe(recycledDir);
    const after = inodes(next);
    const fresh = [...after.keys()].filter((f) => after.get(f) !== before.get(f));
    expect(fresh.sort()).toEqual(CHAINS.map((c) => `chain_id=${c}/month=2026-12/day-2026-12-13.parquet`).sort());
    expect(r.files).toBe(fresh.length);
    expect(Object.values(marker(next).files!).filter((v) => v === marker(next).generation)).toHaveLength(fresh.length);
    // The generations readers may still hold are as they were.
    expect(inodes(previous)).toEqual(previousFiles);
    expect(inodes(current)).toEqual(before);
    expect(await readLake(true)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });

    // A generation whose marker lists no files (an export before versions) is not recycled: the next
    // build is made afresh, and its publish deletes it.
    writeFileSync(join(gensDir, previous, GENERATION_MARKER), `${JSON.stringify({ table: 'evm_blocks', generation: marker(previous).generation, owner: '_' })}\n`);
    await addDay('2026-12-14');
    await exportBlocks();
    expect(generations()).toHaveLength(3);
    expect(generations()).not.toContain(previous);
    expect(Object.keys(marker(generations().at(-1)!).files!).sort()).toEqual([...Object.keys(marker(next).files!), ...CHAINS.map((c) => `chain_id=${c}/month=2026-12/day-2026-12-14.parquet`)].sort());
    expect(await readLake(true)).toEqual({ rows: await tableRows(), keys: await tableRows(), digest: await tableDigest() });
  });
});

describe('lake layout 2 with shards', () => {
  it('two shards exporting into one lake at the same time lose none of each other’s files', async () => {
    const lake = join(dir, 'shared');
    const shards = await Promise.all(['a', 'b'].map(async (name, i) => ({ name, chain: CHAINS[i], wh: await openWarehouse(join(dir, `shard-${name}.duckdb`)) })));
    try {
      let block = 1;
      for (const day of days('2026-10-29', 6)) {
        await Promise.all(
          shards.map(async (sh) => {
            const t0 = Date.parse(`${day}T00:00:00Z`) / 1000;
            const rows = [0, 1].map((i) => ({ chain_id: sh.chain, block_number: BigInt(block + i), block_hash: `0x${sh.name}${block + i}`, block_timestamp: BigInt(t0 + i) }));
            await sh.wh.commitBatch([rowsToColumns(blocks, rows)], { partitionId: `test/${sh.name}/${day}`, stream: 'evm.blocks', pageToken: null, cursor: {}, rows: 2, pages: 1, complete: true });
          }),
        );
        block += 2;
        await Promise.all(shards.map((sh) => exportParquet(sh.wh, allTables(), lake, { tables: ['evm_blocks'] }, { shard: sh.name })));
        const [r] = (await reader.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet('${realpathSync(join(lake, 'evm_blocks'))}/**/*.parquet', hive_partitioning = true)`)).getRowObjectsJS();
        let expected = 0;
        for (const sh of shards) expected += Number((await sh.wh.query('SELECT count(*) AS n FROM evm_blocks'))[0].n);
        expect(Number(r.n), day).toBe(expected);
      }
      // Each shard compacted its own October; November's days are one file per shard and day.
      for (const [i, sh] of shards.entries()) {
        expect(readdirSync(join(lake, 'evm_blocks', `chain_id=${CHAINS[i]}`, 'month=2026-10'))).toEqual([`month-${sh.name}.parquet`]);
        expect(readdirSync(join(lake, 'evm_blocks', `chain_id=${CHAINS[i]}`, 'month=2026-11')).sort()).toEqual(days('2026-11-01', 3).map((d) => `day-${d}-${sh.name}.parquet`));
      }
    } finally {
      for (const sh of shards) await sh.wh.close();
    }
  });
});
