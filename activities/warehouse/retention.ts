import { sqlFile } from './sqlFile.ts';
import type { Warehouse } from './warehouse.ts';

export interface RetentionResult {
  /** Run records deleted. */
  runRecords: number;
}

/**
 * Keeps the tables that grow with every run bounded: run records older than `runRecordsDays`
 * (0: kept forever) are deleted, serialized with commits. The data tables and the change record
 * (_glacier_changed_partitions, one row per partition) grow with the data, not with runs.
 */
export async function applyRetention(warehouse: Warehouse, options: { runRecordsDays: number }): Promise<RetentionResult> {
  if (options.runRecordsDays <= 0) return { runRecords: 0 };
  return warehouse.withWriter(async (w) => {
    const reader = await w.runAndReadAll(sqlFile('ops/pruneSyncRuns.sql'), [options.runRecordsDays]);
    return { runRecords: Number(reader.getRows()[0]?.[0] ?? 0) };
  });
}
