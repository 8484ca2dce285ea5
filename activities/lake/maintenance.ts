import type { DuckDBConnection } from '@duckdb/node-api';
import type { LakeSettings } from './lake.ts';

/**
 * The lake's upkeep, done by DuckLake's own functions before an export's night (each its own
 * commit): small files of a partition merged, files with many deleted rows rewritten, snapshots older
 * than the retention expired, and the files no snapshot references any more (and those of a killed
 * export) deleted once readers had time to finish with them. No inlined rows to flush: the lake's
 * writers inline none (lake.ts).
 */

/** How long a file no snapshot references stays on disk for readers that opened it before (ducklake_cleanup_old_files). */
export const CLEANUP_GRACE_HOURS = 24;

export interface MaintenanceOptions {
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

export async function maintainLake(conn: DuckDBConnection, alias: string, lake: LakeSettings, options: MaintenanceOptions = {}): Promise<void> {
  const ago = (hours: number) => `now() - INTERVAL ${Math.round(Math.max(0, hours) * 3600)} SECOND`;
  const grace = ago(options.graceHours ?? CLEANUP_GRACE_HOURS);
  await conn.run(`CALL ducklake_merge_adjacent_files('${alias}')`);
  await conn.run(`CALL ducklake_rewrite_data_files('${alias}')`);
  await conn.run(`CALL ducklake_expire_snapshots('${alias}', older_than => ${ago(lake.snapshotDays * 24)})`);
  await conn.run(`CALL ducklake_cleanup_old_files('${alias}', older_than => ${grace})`);
  // Files an export killed before its commit wrote (no snapshot knows them).
  await conn.run(`CALL ducklake_delete_orphaned_files('${alias}', older_than => ${grace})`);
}
