import { join } from 'node:path';

/** Where things live under the data directory; one place, so the CLI and the worker agree. */
export const warehousePath = (dataDir: string): string => join(dataDir, 'warehouse.duckdb');
export const parquetDir = (dataDir: string): string => join(dataDir, 'parquet');
export const temporalStateDir = (dataDir: string): string => join(dataDir, 'temporal');
