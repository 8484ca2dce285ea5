import { join } from 'node:path';

/** Where things live under the data directory; one place, so the CLI and the worker agree. */
export const warehousePath = (dataDir: string): string => join(dataDir, 'warehouse.duckdb');
export const parquetDir = (dataDir: string): string => join(dataDir, 'parquet');
export const temporalStateDir = (dataDir: string): string => join(dataDir, 'temporal');

/** Sharded layout: each shard's DuckDB file, so shards may share one data directory (one machine, a test). */
export const shardWarehousePath = (dataDir: string, shard: string): string => join(dataDir, 'shards', shard, 'warehouse.duckdb');

/** The warehouse file this process owns: its shard's, or the single one. */
export const ownWarehousePath = (config: { dataDir: string; shard?: string }): string => (config.shard ? shardWarehousePath(config.dataDir, config.shard) : warehousePath(config.dataDir));

/** The Parquet lake: lakeDir when set (shards on several machines share it), else <dataDir>/parquet. */
export const lakeDirOf = (config: { dataDir: string; lakeDir?: string }): string => config.lakeDir ?? parquetDir(config.dataDir);
