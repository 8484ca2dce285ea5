import { sqlFile } from './sqlFile.ts';
import type { Warehouse } from './warehouse.ts';

export interface RetentionResult {
  /** Run records deleted. */
  runRecords: number;
}

/**
 * Keeps the tables that grow with every run bounded: run records older than `runRecordsDays`
 * (0: kept forever) are deleted, serialized with commits. The data tables and the change record
 * (_glacier_changed_partitions, one row per partition) grow with the data, not with runs. Then the
 * warehouse is checkpointed (Warehouse.settle): a run's end leaves the file at rest, without a WAL
 * that grows over nights until a commit crosses the threshold; after every 8th export, its DuckDB
 * instance is opened again too (what the lake's attaches left in the old one goes with it).
 */
export async function applyRetention(warehouse: Warehouse, options: { runRecordsDays: number }): Promise<RetentionResult> {
  const result =
    options.runRecordsDays <= 0
      ? { runRecords: 0 }
      : await warehouse.withWriter(async (w) => {
          const reader = await w.runAndReadAll(sqlFile('ops/pruneSyncRuns.sql'), [options.runRecordsDays]);
          return { runRecords: Number(reader.getRows()[0]?.[0] ?? 0) };
        });
  await warehouse.settle();
  return result;
}
