import { stat } from 'node:fs/promises';
import { ident } from './identifier.ts';
import { sqlFile } from './sqlFile.ts';
import type { Warehouse } from './warehouse.ts';

/** What the warehouse holds at one moment. */
export interface WarehouseSize {
  /** Exact rows per stream table (count(*)). */
  tableRows: Record<string, number>;
  /** Their sum. */
  rows: number;
  /** The DuckDB file and its WAL, on disk. */
  bytes: number;
}

/** The lake's live files (every shard's). */
export interface LakeSize {
  files: number;
  bytes: number;
}

/** One run's size record (sql/schema/070_run_sizes.sql), as written. */
export interface RunSize {
  runId: string;
  warehouse: WarehouseSize;
  /** Undefined when the run did not export. */
  lake?: LakeSize;
}

const sizeOf = async (path: string): Promise<number> => {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
};

/**
 * Exact row counts of `tables` (the stream catalog's names) in one query, and the file's bytes. An
 * exact count(*) reads only row-group sizes and deletion markers, not column data: 5-9 ms on 10M
 * rows, up to about 0.1 s when merges left deletions in every row group (bench/warehouseSizeCost.ts).
 * duckdb_tables()' estimated_size is cheaper but counts the rows merges deleted as stored.
 */
export async function measureWarehouse(warehouse: Warehouse, tables: readonly string[]): Promise<WarehouseSize> {
  const counts = tables.length
    ? await warehouse.query(tables.map((t) => `SELECT '${t}' AS table_name, count(*) AS n FROM ${ident(t)}`).join('\nUNION ALL\n'))
    : [];
  const tableRows = Object.fromEntries(counts.map((r) => [String(r.table_name), Number(r.n)]));
  const bytes = warehouse.path === ':memory:' ? 0 : (await sizeOf(warehouse.path)) + (await sizeOf(`${warehouse.path}.wal`));
  return { tableRows, rows: Object.values(tableRows).reduce((n, r) => n + r, 0), bytes };
}

/**
 * The lake's live files and bytes (data and delete files of its current snapshot) as the last export
 * left them after its upkeep: it records them in _glacier_meta (activities/lake/export.ts), so this
 * reads no catalog. Undefined before the first export.
 */
export async function measureLake(warehouse: Warehouse): Promise<LakeSize | undefined> {
  const rows = await warehouse.query("SELECT key, value FROM _glacier_meta WHERE key IN ('lake_files', 'lake_bytes')");
  const value = (key: string) => rows.find((r) => r.key === key)?.value;
  if (value('lake_files') === undefined) return undefined;
  return { files: Number(value('lake_files')), bytes: Number(value('lake_bytes') ?? 0) };
}

/**
 * Records what the warehouse (and, when the run exported, the lake) holds at the end of pipeline run
 * `runId`, with the run's cost from its run records (sql/ops/recordRunSize.sql). Called by the
 * pipeline's last housekeeping step (the applyRetention activity), after its sync and export.
 */
export async function recordRunSize(warehouse: Warehouse, options: { runId: string; tables: readonly string[] }): Promise<RunSize> {
  const [{ exported }] = await warehouse.query(sqlFile('ops/runExported.sql'), [options.runId]);
  const size = await measureWarehouse(warehouse, options.tables);
  const lake = exported === true ? await measureLake(warehouse) : undefined;
  await warehouse.withWriter((w) =>
    w.run(sqlFile('ops/recordRunSize.sql'), [options.runId, size.rows, JSON.stringify(size.tableRows), size.bytes, lake?.files ?? null, lake?.bytes ?? null]),
  );
  return { runId: options.runId, warehouse: size, ...(lake ? { lake } : {}) };
}
