import { join, sep } from 'node:path';
import type { DuckLakeSettings, LakeSettings } from '../activities/lake/settings.ts';

/** Where things live under the data directory; one place, so the CLI and the worker agree. */
export const warehousePath = (dataDir: string): string => join(dataDir, 'warehouse.duckdb');
/** Where lake layouts 1-4 (before DuckLake) wrote Parquet: left as it is, the user removes it (docs/upgrading.md). */
export const parquetDir = (dataDir: string): string => join(dataDir, 'parquet');
export const temporalStateDir = (dataDir: string): string => join(dataDir, 'temporal');

/** Sharded layout: each shard's DuckDB file, so shards may share one data directory (one machine, a test). */
export const shardWarehousePath = (dataDir: string, shard: string): string => join(dataDir, 'shards', shard, 'warehouse.duckdb');

/** The warehouse file this process owns: its shard's, or the single one. */
export const ownWarehousePath = (config: { dataDir: string; shard?: string }): string => (config.shard ? shardWarehousePath(config.dataDir, config.shard) : warehousePath(config.dataDir));

/** The lake: config `lake`, by default a SQLite catalog and the Parquet files under <dataDir>/lake; an Iceberg REST catalog as configured. */
export function lakeOf(config: { dataDir: string; lake?: Partial<LakeSettings> }): LakeSettings {
  const lake = config.lake ?? {};
  if (lake.format === 'iceberg') return { namespace: 'glacier', auth: 'none', ...lake } as LakeSettings;
  const duck = lake as Partial<DuckLakeSettings>;
  return {
    format: 'ducklake',
    catalog: duck.catalog ?? `sqlite:${join(config.dataDir, 'lake', 'catalog.sqlite')}`,
    dataPath: duck.dataPath ?? join(config.dataDir, 'lake', 'data') + sep,
    snapshotDays: duck.snapshotDays ?? 30,
    ...(duck.s3 ? { s3: duck.s3 } : {}),
  };
}
