import type { DuckDBConnection } from '@duckdb/node-api';
import type { LakeSettings } from './lake.ts';

/**
 * The lake's upkeep, done by DuckLake's own functions after an export (each its own commit, so a
 * reader's snapshot is never touched): inlined rows (small nights' inserts and deletes kept in the
 * catalog) flushed to Parquet, small files of a partition merged, snapshots older than the retention
 * expired, and the files no snapshot references any more deleted once readers had time to finish.
 */
export interface MaintenanceResult {
  /** Live data files and their bytes after the upkeep (what a reader of the current snapshot may open). */
  files: number;
  bytes: number;
  ran: boolean;
}

/** How long a file no snapshot references stays on disk for readers that opened it before (ducklake_cleanup_old_files). */
export const CLEANUP_GRACE_HOURS = 24;

export interface MaintenanceOptions {
  /** Run the upkeep whatever the schedule says. */
  force?: boolean;
  /** Hours a retired file stays for readers (default CLEANUP_GRACE_HOURS; benches use 0). */
  graceHours?: number;
}

/** The lake's live data and delete files, from its catalog. */
export async function lakeFiles(conn: DuckDBConnection, alias: string): Promise<{ files: number; bytes: number }> {
  const meta = `__ducklake_metadata_${alias}`;
  const [row] = (
    await conn.runAndReadAll(
      `SELECT (SELECT count(*) FROM ${meta}.ducklake_data_file WHERE end_snapshot IS NULL) + (SELECT count(*) FROM ${meta}.ducklake_delete_file WHERE end_snapshot IS NULL) AS files,
              coalesce((SELECT sum(file_size_bytes) FROM ${meta}.ducklake_data_file WHERE end_snapshot IS NULL), 0) + coalesce((SELECT sum(file_size_bytes) FROM ${meta}.ducklake_delete_file WHERE end_snapshot IS NULL), 0) AS bytes`,
    )
  ).getRowObjectsJS();
  return { files: Number(row.files), bytes: Number(row.bytes) };
}

export async function maintainLake(conn: DuckDBConnection, alias: string, lake: LakeSettings, options: MaintenanceOptions = {}): Promise<MaintenanceResult> {
  const hours = (h: number) => `now() - INTERVAL ${Math.max(0, h) * 3600} SECOND`;
  await conn.run(`CALL ducklake_flush_inlined_data('${alias}')`);
  await conn.run(`CALL ducklake_merge_adjacent_files('${alias}')`);
  await conn.run(`CALL ducklake_expire_snapshots('${alias}', older_than => ${hours(lake.snapshotDays * 24)})`);
  await conn.run(`CALL ducklake_cleanup_old_files('${alias}', older_than => ${hours(options.graceHours ?? CLEANUP_GRACE_HOURS)})`);
  return { ...(await lakeFiles(conn, alias)), ran: true };
}
