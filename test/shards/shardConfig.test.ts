import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';
import { ConfigError, resolveConfig, validateConfig } from '../../worker/config.ts';
import { lakeOf, ownWarehousePath } from '../../worker/paths.ts';

describe('shard configuration', () => {
  it('defaults to no shards: one warehouse at <dataDir>/warehouse.duckdb and the lake under <dataDir>/lake', () => {
    const config = resolveConfig(validateConfig({ dataDir: '/d' }), {});
    expect(config.shards).toEqual([]);
    expect(config.shard).toBeUndefined();
    expect(ownWarehousePath(config)).toBe('/d/warehouse.duckdb');
    expect(lakeOf(config)).toEqual({ format: 'ducklake', catalog: 'sqlite:/d/lake/catalog.sqlite', dataPath: '/d/lake/data/', snapshotDays: 30 });
  });

  it('a shard worker owns <dataDir>/shards/<name>/warehouse.duckdb; the lake is shared (GLACIER_LAKE_CATALOG, GLACIER_LAKE_DATA_PATH)', () => {
    const config = resolveConfig(validateConfig({ dataDir: '/d', shards: ['a', 'b'] }), { GLACIER_SHARD: 'b', GLACIER_LAKE_CATALOG: 'postgres:dbname=lake host=db', GLACIER_LAKE_DATA_PATH: 's3://bucket/lake/' });
    expect(config.shard).toBe('b');
    expect(ownWarehousePath(config)).toBe('/d/shards/b/warehouse.duckdb');
    expect(lakeOf(config)).toMatchObject({ catalog: 'postgres:dbname=lake host=db', dataPath: 's3://bucket/lake/' });
    expect(resolveConfig(validateConfig({}), { GLACIER_SHARDS: 'x, y', GLACIER_SHARD: 'y' }).shards).toEqual(['x', 'y']);
  });

  it('rejects bad shard names, repeated names and a shard the config does not name, in one line', () => {
    expect(() => validateConfig({ shards: ['A'] }, 'f.yaml')).toThrow(/^f\.yaml: shards\[0\]: expected a shard name/);
    expect(() => validateConfig({ shards: ['a', 'a'] }, 'f.yaml')).toThrow(/shard names must be unique/);
    expect(() => resolveConfig(validateConfig({ shards: ['a'] }), { GLACIER_SHARD: 'z' })).toThrow(new ConfigError('shard "z" is not one of the config\'s shards (a)'));
    expect(() => resolveConfig(validateConfig({}), { GLACIER_SHARD: 'z' })).toThrow(/the config names no shards/);
  });

  it('the CLI says in one line what a sharded config needs: a shard name for a worker, a shared cluster for every command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glacier-shard-cli-'));
    try {
      const file = join(dir, 'c.yaml');
      writeFileSync(file, `dataDir: ${dir}\nshards: [a, b]\n`);
      const env = { TEMPORAL_ADDRESS: '', GLACIER_SHARD: '', GLACIER_SHARDS: '' };
      const worker = await runCli(['--config', file, 'worker'], { env });
      expect(worker.code).toBe(1);
      expect(worker.stderr.trim()).toBe('glacier-etl: this config names shards (a, b): start the worker with --shard <name> (or GLACIER_SHARD)');
      const noCluster = await runCli(['--config', file, 'worker', '--shard', 'a'], { env });
      expect(noCluster.stderr.trim()).toBe('glacier-etl: shard a: shards share one Temporal cluster: set TEMPORAL_ADDRESS');
      const unknown = await runCli(['--config', file, 'worker', '--shard', 'z'], { env });
      expect(unknown.stderr.trim()).toBe('glacier-etl: shard "z" is not one of the config\'s shards (a, b)');
      const status = await runCli(['--config', file, 'status'], { env });
      expect(status.code).toBe(1);
      expect(status.stderr.trim()).toMatch(/^glacier-etl: the config names shards \(a, b\): set TEMPORAL_ADDRESS/);
      expect(status.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
