/**
 * How should the lake's tables be partitioned? One synthetic transactions table (three chains, the
 * C-chain most of the rows; hashes, addresses, amounts, times) is written night by night into a
 * DuckLake per candidate layout, the way the export writes it: a night's rows in one commit, the
 * product's upkeep (activities/lake/maintenance.ts) before each night. Then, from a fresh read-only
 * attach, the queries analysts run are timed (median of 5): one chain's month (by `month`, and by a
 * time range), one chain by month, one transaction by hash. Prints files, bytes, write CPU and query ms.
 *
 *   npx tsx bench/lakePartitioning.ts [days=365] [rowsPerDay=5000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { attachLake } from '../activities/lake/lake.ts';
import { type LakeSettings } from '../activities/lake/settings.ts';
import { lakeFiles, maintainLake } from '../activities/lake/maintenance.ts';

const [days, rowsPerDay] = [365, 5000].map((d, i) => Number(process.argv[2 + i] ?? d));
const LAYOUTS = [[], ['chain_id'], ['chain_id', 'month'], ['chain_id', 'day']];
const START = Date.UTC(2025, 0, 1) / 1000;
const dir = mkdtempSync(join(tmpdir(), 'glacier-lakeparts-'));

const cpu = () => process.cpuUsage().user / 1e3 + process.cpuUsage().system / 1e3;
const night = (d: number) => `
  SELECT CASE WHEN h < 70 THEN '43114' WHEN h < 90 THEN '43113' ELSE '11111' END AS chain_id,
         ${d}::BIGINT * 10000000 + i AS block_number, ts AS block_timestamp,
         strftime(to_timestamp(ts) AT TIME ZONE 'UTC', '%Y-%m') AS month, strftime(to_timestamp(ts) AT TIME ZONE 'UTC', '%Y-%m-%d') AS day,
         '0x' || md5(${d} || '-' || i) || md5(i || '-' || ${d}) AS tx_hash, '0x' || left(md5('f' || (i % 997)), 40) AS from_address,
         '0x' || left(md5('t' || (i % 1499)), 40) AS to_address, CAST(hash(i, ${d}) % 1000000000000000000 AS DECIMAL(38,0)) AS value, 21000 + hash(i) % 500000 AS gas_used
  FROM (SELECT i, hash(i * 7 + ${d}) % 100 AS h, ${START} + ${d} * 86400 + (i * 86400) // ${rowsPerDay} AS ts FROM range(${rowsPerDay}) t(i))`;

async function median(conn: DuckDBConnection, sql: string): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await conn.runAndReadAll(sql);
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[2];
}

const month = '2025-06';
const [lo, hi] = [Date.UTC(2025, 5, 1) / 1000, Date.UTC(2025, 6, 1) / 1000];
const rows: Record<string, string | number>[] = [];
for (const layout of LAYOUTS) {
  const name = layout.length ? layout.join(', ') : '(none)';
  const lake: LakeSettings = { format: 'ducklake', catalog: `sqlite:${join(dir, `${layout.join('_') || 'none'}.sqlite`)}`, dataPath: join(dir, `${layout.join('_') || 'none'}/`), snapshotDays: 30 };
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MB' });
  const conn = await instance.connect();
  await attachLake(conn, lake, { alias: 'l' });
  await conn.run(`CREATE TABLE l.t AS ${night(0)} LIMIT 0`);
  if (layout.length) await conn.run(`ALTER TABLE l.t SET PARTITIONED BY (${layout.join(', ')})`);
  const before = cpu();
  const wall = performance.now();
  for (let d = 0; d < days; d++) {
    await maintainLake(conn, 'l', lake, { graceHours: 0 });
    await conn.run(`INSERT INTO l.t ${night(d)}`);
  }
  await maintainLake(conn, 'l', lake, { graceHours: 0 });
  const written = { cpu: (cpu() - before) / 1000, wall: (performance.now() - wall) / 1000, ...(await lakeFiles(conn, 'l')) };
  conn.closeSync();
  instance.closeSync();
  const reader = await (await DuckDBInstance.create(':memory:')).connect();
  await attachLake(reader, lake, { alias: 'l', readOnly: true });
  rows.push({
    layout: name,
    files: written.files,
    MB: +(written.bytes / 2 ** 20).toFixed(1),
    'write CPU s': +written.cpu.toFixed(1),
    'one chain, one month (month =) ms': +(await median(reader, `SELECT count(*), sum(gas_used) FROM l.t WHERE chain_id = '43114' AND month = '${month}'`)).toFixed(1),
    'one chain, one month (time range) ms': +(await median(reader, `SELECT count(*), sum(gas_used) FROM l.t WHERE chain_id = '43114' AND block_timestamp >= ${lo} AND block_timestamp < ${hi}`)).toFixed(1),
    'one chain by month ms': +(await median(reader, `SELECT month, count(*), sum(value) FROM l.t WHERE chain_id = '43113' GROUP BY month`)).toFixed(1),
    'one hash ms': +(await median(reader, `SELECT * FROM l.t WHERE tx_hash = (SELECT '0x' || md5('${Math.floor(days / 2)}-17') || md5('17-${Math.floor(days / 2)}'))`)).toFixed(1),
  });
  reader.closeSync();
  console.log(JSON.stringify(rows.at(-1)));
}
console.log(`\n${days} nights of ${rowsPerDay.toLocaleString('en-US')} rows (${(days * rowsPerDay).toLocaleString('en-US')}), upkeep before each night:\n`);
console.table(rows);
rmSync(dir, { recursive: true, force: true });
