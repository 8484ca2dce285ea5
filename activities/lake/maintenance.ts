import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckLakeSettings } from './settings.ts';

/**
 * The DuckLake's upkeep, done by DuckLake's own functions before an export's night (each its own
 * commit): small files of a partition merged, files with many deleted rows rewritten, snapshots older
 * than the retention expired, and the files no snapshot references any more (and those of a killed
 * export) deleted once readers had time to finish with them. No inlined rows to flush: the lake's
 * writers inline none (lake.ts). An Iceberg lake has none here: DuckDB 1.5.5 offers no Iceberg
 * maintenance, so expiry and compaction are the catalog's (docs/nights.md, Iceberg upkeep).
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

/** A file smaller than this is small: merged with its partition's others once they are MERGE_AT. */
export const SMALL_FILE_BYTES = 1 << 20;
/**
 * The share of a file's rows deleted above which the upkeep rewrites it without them: any. The merge
 * leaves files with deleted rows be, and a spend or a balance deletes a few rows of many files: at 0.2,
 * about half the live files had deleted rows and merged no more (bench/README.md).
 */
export const REWRITE_DELETED = 0;
/**
 * Small files in one partition (a table's chain or network and month) that make the upkeep merge
 * them; a night adds one to each partition it changes. At 8 the lake held 829 files after 100 nights.
 */
export const MERGE_AT = 4;

/** The most small live data files any partition of the lake holds. */
async function smallFilesPerPartition(conn: DuckDBConnection, alias: string): Promise<number> {
  const meta = `__ducklake_metadata_${alias}`;
  const [row] = (
    await conn.runAndReadAll(
      `SELECT coalesce(max(n), 0) AS n FROM (SELECT table_id, p, count(*) AS n FROM (
         SELECT f.data_file_id, f.table_id, string_agg(coalesce(v.partition_value, ''), '/' ORDER BY v.partition_key_index) AS p
         FROM ${meta}.ducklake_data_file AS f LEFT JOIN ${meta}.ducklake_file_partition_value AS v ON v.data_file_id = f.data_file_id
         WHERE f.end_snapshot IS NULL AND f.file_size_bytes < ${SMALL_FILE_BYTES} GROUP BY f.data_file_id, f.table_id) GROUP BY table_id, p)`,
    )
  ).getRowObjectsJS();
  return Number(row.n);
}

/**
 * Each night: expiry and cleanup (cheap: catalog rows and the files they free). When some partition
 * holds MERGE_AT small files (a night writes one per partition it changes): the small files merged
 * (at most SMALL_FILE_BYTES each, so a merge rewrites a bounded amount whatever the history) and the
 * files with many deleted rows rewritten. Returns whether it merged.
 */
export async function maintainLake(conn: DuckDBConnection, alias: string, lake: DuckLakeSettings, options: MaintenanceOptions = {}): Promise<boolean> {
  const ago = (hours: number) => `now() - INTERVAL ${Math.round(Math.max(0, hours) * 3600)} SECOND`;
  const grace = ago(options.graceHours ?? CLEANUP_GRACE_HOURS);
  const merge = (await smallFilesPerPartition(conn, alias)) >= MERGE_AT;
  if (merge) {
    // Files with deleted rows first: the merge leaves them be (REWRITE_DELETED).
    await conn.run(`CALL ducklake_rewrite_data_files('${alias}', delete_threshold => ${REWRITE_DELETED})`);
    await conn.run(`CALL ducklake_merge_adjacent_files('${alias}', max_file_size => ${SMALL_FILE_BYTES})`);
  }
  await conn.run(`CALL ducklake_expire_snapshots('${alias}', older_than => ${ago(lake.snapshotDays * 24)})`);
  await conn.run(`CALL ducklake_cleanup_old_files('${alias}', older_than => ${grace})`);
  // Files an export killed before its commit wrote (no snapshot knows them).
  await conn.run(`CALL ducklake_delete_orphaned_files('${alias}', older_than => ${grace})`);
  return merge;
}
