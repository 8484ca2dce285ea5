// The warehouse: one DuckDB file, schema from sql/, atomic batch commits with checkpoints, Parquet export.
export { Warehouse, openWarehouse, type CommitStep, type FaultHook, type TableBatch, type CheckpointWrite, type RunRecord, type SnapshotWalkRecord, type OpenOptions } from './warehouse.ts';
export { rowsToColumns, concatUnique, type ColumnBatch } from './columnBatch.ts';
export type { TableDef, ColumnDef, ColumnType, Row, CellValue } from './tableDef.ts';
