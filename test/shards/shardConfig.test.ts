import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig, validateConfig } from '../../worker/config.ts';
import { lakeDirOf, ownWarehousePath } from '../../worker/paths.ts';

describe('shard configuration', () => {
  it('defaults to no shards: one warehouse at <dataDir>/warehouse.duckdb and the lake at <dataDir>/parquet', () => {
    const config = resolveConfig(validateConfig({ dataDir: '/d' }), {});
    expect(config.shards).toEqual([]);
    expect(config.shard).toBeUndefined();
    expect(ownWarehousePath(config)).toBe('/d/warehouse.duckdb');
    expect(lakeDirOf(config)).toBe('/d/parquet');
  });

  it('a shard worker owns <dataDir>/shards/<name>/warehouse.duckdb; the lake is shared (GLACIER_LAKE_DIR)', () => {
    const config = resolveConfig(validateConfig({ dataDir: '/d', shards: ['a', 'b'] }), { GLACIER_SHARD: 'b', GLACIER_LAKE_DIR: '/lake' });
    expect(config.shard).toBe('b');
    expect(ownWarehousePath(config)).toBe('/d/shards/b/warehouse.duckdb');
    expect(lakeDirOf(config)).toBe('/lake');
    expect(resolveConfig(validateConfig({}), { GLACIER_SHARDS: 'x, y', GLACIER_SHARD: 'y' }).shards).toEqual(['x', 'y']);
  });

  it('rejects bad shard names, repeated names and a shard the config does not name, in one line', () => {
    expect(() => validateConfig({ shards: ['A'] }, 'f.yaml')).toThrow(/^f\.yaml: shards\[0\]: expected a shard name/);
    expect(() => validateConfig({ shards: ['a', 'a'] }, 'f.yaml')).toThrow(/shard names must be unique/);
    expect(() => resolveConfig(validateConfig({ shards: ['a'] }), { GLACIER_SHARD: 'z' })).toThrow(new ConfigError('shard "z" is not one of the config\'s shards (a)'));
    expect(() => resolveConfig(validateConfig({}), { GLACIER_SHARD: 'z' })).toThrow(/the config names no shards/);
  });
});
