/**
 * The measurements behind the export's filter shapes and the lake's options (activities/lake/export.ts,
 * maintenance.ts; bench/README.md, "100 nights on the DuckLake, upkeep and reads fixed"), on scratch
 * lakes in a temporary directory:
 *   1. files DuckLake reads for each filter shape over a table partitioned by chain and month;
 *   2. CPU of the per-row partition key against a range test on a 10M-row DuckDB table;
 *   3. bytes of the same rows in snappy (DuckLake's default) and zstd;
 *   4. which files `ducklake_rewrite_data_files(delete_threshold => 0)` rewrites.
 *
 *   npx tsx bench/lakeShapes.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { attachLake } from '../activities/lake/lake.ts';
import { type LakeSettings } from '../activities/lake/settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'glacier-lake-shapes-'));
const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const rows = async (c: DuckDBConnection, sql: string) => (await c.runAndReadAll(sql)).getRows();
const lake = async (name: string): Promise<string> =>
  attachLake(conn, { format: 'ducklake', catalog: `sqlite:${join(dir, name)}.sqlite`, dataPath: join(dir, name, '/'), snapshotDays: 30 } as LakeSettings, { alias: name });

try {
  // 1. Three chains, months of hourly rows, four inserts: a file per partition an insert touches.
  await lake('shapes');
  await conn.run('CREATE TABLE shapes.t (chain_id VARCHAR, ts BIGINT, k BIGINT, month VARCHAR)');
  await conn.run('ALTER TABLE shapes.t SET PARTITIONED BY (chain_id, month)');
  for (let n = 0; n < 4; n++) {
    await conn.run(`INSERT INTO shapes.t SELECT 'c' || (i % 3), 1600000000 + (i // 3) * 3600, i, strftime(to_timestamp(1600000000 + (i // 3) * 3600), '%Y-%m') FROM range(${n * 52_000}, ${(n + 1) * 52_000}) r(i)`);
  }
  const [[total]] = await rows(conn, 'SELECT count(*) FROM __ducklake_metadata_shapes.ducklake_data_file WHERE end_snapshot IS NULL');
  console.log(`1. files read of ${total}, by filter shape (EXPLAIN ANALYZE, Total Files Read)`);
  for (const where of [
    "chain_id IN ('c1', 'c2') AND month IN ('2020-10', '2021-06')",
    "(chain_id, month) IN (('c1', '2020-10'), ('c2', '2021-06'))",
    "(chain_id = 'c1' AND month = '2020-10') OR (chain_id = 'c2' AND month = '2021-06') OR (chain_id = 'c0' AND month = '2021-07') OR (chain_id = 'c0' AND month = '2022-01')",
    'ts >= 1601510400 AND ts < 1601596800',
  ]) {
    const plan = (await rows(conn, `EXPLAIN ANALYZE SELECT count(*) FROM shapes.t WHERE ${where}`)).flat().join('\n');
    console.log(`   ${/Total Files Read:\s*(\d+)/.exec(plan)?.[1] ?? '?'}  ${where}`);
  }

  // 2. The per-row key (as lakeKeys.ts builds it) against a range test, 10M rows.
  await conn.run("CREATE TABLE big AS SELECT i AS k, 1600000000 + i * 10 AS ts, 'c' || (i % 3) AS chain_id FROM range(10000000) r(i)");
  const cpuMs = async (where: string) => {
    await rows(conn, `SELECT count(*) FROM big WHERE ${where}`);
    const start = process.cpuUsage();
    await rows(conn, `SELECT count(*) FROM big WHERE ${where}`);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  const key = await cpuMs(`to_json([chain_id, strftime(to_timestamp(ts) AT TIME ZONE 'UTC', '%Y-%m-%d')])::VARCHAR IN ('["c1","2020-09-13"]')`);
  const ranges = await cpuMs('(ts >= 1600000000 AND ts < 1600086400) OR (ts >= 1699000000 AND ts < 1699086400)');
  console.log(`2. CPU per row, 10M rows: partition key ${((key * 1e6) / 1e7).toFixed(0)} ns, two day ranges ${((ranges * 1e6) / 1e7).toFixed(0)} ns`);

  // 3. The same rows in each codec.
  const bytes: Record<string, number> = {};
  for (const codec of ['snappy', 'zstd']) {
    const name = await lake(`codec_${codec}`);
    await conn.run(`CALL ${name}.set_option('parquet_compression', '${codec}')`);
    await conn.run(`CREATE TABLE ${name}.t AS SELECT k, ts, chain_id, md5(k::VARCHAR) AS hash, k % 1000 AS small FROM big WHERE k < 1000000`);
    bytes[codec] = Number((await rows(conn, `SELECT sum(file_size_bytes) FROM __ducklake_metadata_${name}.ducklake_data_file`))[0][0]);
  }
  console.log(`3. 1M rows: snappy ${(bytes.snappy / 2 ** 20).toFixed(1)} MiB, zstd ${(bytes.zstd / 2 ** 20).toFixed(1)} MiB (${(bytes.snappy / bytes.zstd).toFixed(2)}x)`);

  // 4. Four files, two with one deleted row each: threshold 0 rewrites those two only.
  await lake('rewrite');
  await conn.run('CREATE TABLE rewrite.t (k BIGINT)');
  for (let n = 0; n < 4; n++) await conn.run(`INSERT INTO rewrite.t SELECT i FROM range(${n * 1000}, ${(n + 1) * 1000}) r(i)`);
  await conn.run('DELETE FROM rewrite.t WHERE k IN (5, 1005)');
  const live = async () => (await rows(conn, 'SELECT data_file_id FROM __ducklake_metadata_rewrite.ducklake_data_file WHERE end_snapshot IS NULL ORDER BY 1')).flat().join(', ');
  const before = await live();
  await conn.run("CALL ducklake_rewrite_data_files('rewrite', delete_threshold => 0)");
  console.log(`4. live data files ${before} -> ${await live()} after delete_threshold => 0`);
} finally {
  conn.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
}
