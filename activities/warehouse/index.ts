// The warehouse: one DuckDB file, schema from sql/, atomic batch commits with checkpoints, Parquet export.
export { Warehouse, openWarehouse, type CommitStep, type FaultHook, type TableBatch, type CheckpointWrite, type RunRecord, type SnapshotWalkRecord, type OpenOptions } from './warehouse.ts';
export { rowsToArrow, arrowColumnValues } from './arrowRows.ts';
export { arrowSchema, arrowType } from './arrowSchema.ts';
export type { TableDef, ColumnDef, ColumnType, Row, CellValue } from './tableDef.ts';
