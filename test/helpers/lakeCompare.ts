import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allTables } from '../../activities/streams/catalog.ts';
import { lakeTable, lakeTables, EXPORT_MEMORY_LIMIT } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import type { Warehouse } from '../../activities/warehouse/warehouse.ts';
import { runNode } from './runCli.ts';

const reader = new URL('./lakeReader.ts', import.meta.url).pathname;

/** What another process reads of the lake: every lake table copied into a DuckDB file (lakeReader.ts). */
export async function readLakeElsewhere(lake: LakeSettings, snapshot?: number): Promise<{ file: string; tables: string[]; close: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-lake-read-'));
  const file = join(dir, 'copy.duckdb');
  const r = await runNode(['--import', import.meta.resolve('tsx'), reader, JSON.stringify(lake), file, ...(snapshot === undefined ? [] : [String(snapshot)])], { timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`lake reader exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { file, tables: (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { tables: string[] }).tables, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Per lake table: rows of the warehouse (in the lake's columns) the copy lacks, rows the copy has
 * that the warehouse lacks (EXCEPT ALL both ways, every column), and the warehouse's row count.
 * `warehouseFile`: compare with that DuckDB file instead of the open warehouse (an earlier copy);
 * `others`: with the union of the warehouse and those files (other shards' warehouses); `format`: the
 * lake's (its column types, export.ts lakeTable).
 */
export async function lakeDifferences(warehouse: Warehouse, copyFile: string, options: { warehouseFile?: string; others?: string[]; format?: LakeSettings['format'] } = {}): Promise<Record<string, { missing: number; extra: number; rows: number }>> {
  const release = await warehouse.raiseMemory(EXPORT_MEMORY_LIMIT);
  const conn = await warehouse.connect();
  const out: Record<string, { missing: number; extra: number; rows: number }> = {};
  try {
    await conn.run(`ATTACH '${copyFile}' AS lake_copy (READ_ONLY)`);
    if (options.warehouseFile) await conn.run(`ATTACH '${options.warehouseFile}' AS wh_then (READ_ONLY)`);
    for (const [i, file] of (options.others ?? []).entries()) await conn.run(`ATTACH '${file}' AS wh_other${i} (READ_ONLY)`);
    const copied = new Set((await conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake_copy'")).getRowObjectsJS().map((r) => String(r.table_name)));
    const n = async (sql: string) => Number((await conn.runAndReadAll(sql)).getRowObjectsJS()[0].n);
    for (const def of lakeTables(allTables())) {
      const t = lakeTable(def, options.format);
      const w = `SELECT * FROM (${[options.warehouseFile ? 'wh_then.main.' : '', ...(options.others ?? []).map((_, i) => `wh_other${i}.main.`)].map((db) => t.rows('true', `${db}"${def.name}"`)).join(' UNION ALL ')})`;
      const rows = await n(`SELECT count(*) AS n FROM (${w})`);
      if (!copied.has(def.name)) {
        out[def.name] = { missing: rows, extra: 0, rows };
        continue;
      }
      const c = `SELECT ${t.columns.map((col) => `"${col.name}"`).join(', ')} FROM lake_copy.main."${def.name}"`;
      out[def.name] = { missing: await n(`SELECT count(*) AS n FROM (${w} EXCEPT ALL ${c})`), extra: await n(`SELECT count(*) AS n FROM (${c} EXCEPT ALL ${w})`), rows };
    }
  } finally {
    await conn.run('DETACH DATABASE IF EXISTS lake_copy');
    await conn.run('DETACH DATABASE IF EXISTS wh_then');
    for (const [i] of (options.others ?? []).entries()) await conn.run(`DETACH DATABASE IF EXISTS wh_other${i}`);
    conn.closeSync();
    await release();
  }
  return out;
}

/** The tables whose copy differs from the warehouse (empty: the lake equals it row for row). */
export function differing(diff: Record<string, { missing: number; extra: number }>): Record<string, { missing: number; extra: number }> {
  return Object.fromEntries(Object.entries(diff).filter(([, d]) => d.missing !== 0 || d.extra !== 0));
}

/** The lake's live data and delete files and their bytes, from its catalog, read by a fresh DuckDB. */
export async function liveLakeFiles(lake: LakeSettings): Promise<{ files: number; bytes: number }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { attachLake } = await import('../../activities/lake/lake.ts');
  const { lakeFiles } = await import('../../activities/lake/maintenance.ts');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await attachLake(connection, lake, { readOnly: true });
    return await lakeFiles(connection, 'lake');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
