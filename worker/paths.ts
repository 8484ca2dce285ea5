import { join, sep } from 'node:path';
import type { LakeSettings } from '../activities/lake/lake.ts';

/** Where things live under the data directory; one place, so the CLI and the worker agree. */
export const warehousePath = (dataDir: string): string => join(dataDir, 'warehouse.duckdb');
/** Where lake layouts 1-4 (before DuckLake) wrote Parquet: left as it is, the user removes it (docs/upgrading.md). */
export const parquetDir = (dataDir: string): string => join(dataDir, 'parquet');
export const temporalStateDir = (dataDir: string): string => join(dataDir, 'temporal');

/** Sharded layout: each shard's DuckDB file, so shards may share one data directory (one machine, a test). */
export const shardWarehousePath = (dataDir: string, shard: string): string => join(dataDir, 'shards', shard, 'warehouse.duckdb');

/** The warehouse file this process owns: its shard's, or the single one. */
export const ownWarehousePath = (config: { dataDir: string; shard?: string }): string => (config.shard ? shardWarehousePath(config.dataDir, config.shard) : warehousePath(config.dataDir));

/** The lake: config `lake`, by default a SQLite catalog and the Parquet files under <dataDir>/lake. */
export function lakeOf(config: { dataDir: string; lake?: Partial<LakeSettings> }): LakeSettings {
  const lake = config.lake ?? {};
  return {
    format: 'ducklake',
    catalog: lake.catalog ?? `sqlite:${join(config.dataDir, 'lake', 'catalog.sqlite')}`,
    dataPath: lake.dataPath ?? join(config.dataDir, 'lake', 'data') + sep,
    snapshotDays: lake.snapshotDays ?? 30,
    ...(lake.s3 ? { s3: lake.s3 } : {}),
  };
}
