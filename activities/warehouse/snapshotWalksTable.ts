import type { TableDef } from './tableDef.ts';

/**
 * `_glacier_snapshot_walks` (sql/schema/000_glacier.sql) as the Parquet export sees it: the finished
 * snapshot walks go to the lake with the snapshots, so readers of the Parquet can tell the latest
 * snapshot of each address set the way the *_latest views do (an empty last walk included).
 * completed_at, the warehouse's own clock, stays out.
 */
export const snapshotWalksExport: TableDef = {
  name: '_glacier_snapshot_walks',
  comment: 'Finished snapshot walks (see sql/schema/000_glacier.sql).',
  columns: [
    { name: 'stream', type: 'VARCHAR' },
    { name: 'partition_id', type: 'VARCHAR' },
    { name: 'snapshot_at', type: 'BIGINT' },
    { name: 'params', type: 'JSON' },
    { name: 'run_id', type: 'VARCHAR' },
    { name: 'rows', type: 'BIGINT' },
    { name: 'pages', type: 'BIGINT' },
  ],
  primaryKey: ['stream', 'partition_id', 'snapshot_at'],
  merge: 'upsert',
  export: { partitionBy: [], dateFrom: 'snapshot_at', owned: 'partition_id IN (SELECT partition_id FROM _glacier_checkpoints)' },
};
