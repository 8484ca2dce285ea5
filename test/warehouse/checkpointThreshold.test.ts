import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../activities/warehouse/index.ts';
import { defaultCheckpointThreshold } from '../../activities/warehouse/warehouse.ts';
import { duckdbSizeBytes } from '../../common/duckdbSize.ts';
import { validateConfig } from '../../worker/config.ts';

/**
 * DuckDB's checkpoint threshold follows the buffer limit (a quarter of it) unless the config names
 * one: rows not yet checkpointed hold about 1.6x their WAL size of the buffer, and fewer checkpoints
 * cost less CPU (see defaultCheckpointThreshold).
 */
async function settings(options: Parameters<typeof openWarehouse>[1]): Promise<{ threshold: number; limit: number }> {
  const warehouse = await openWarehouse(':memory:', options);
  try {
    const [row] = await warehouse.query(`SELECT current_setting('checkpoint_threshold') AS t, current_setting('memory_limit') AS m`);
    const bytes = (text: unknown) => duckdbSizeBytes(String(text).replace(/\s+/g, ''));
    return { threshold: bytes(row.t), limit: bytes(row.m) };
  } finally {
    await warehouse.close();
  }
}

describe('checkpoint threshold', () => {
  it('is a quarter of the memory limit by default, never below DuckDB’s own 16 MiB (a 64MB limit gets that)', async () => {
    const atDefault = await settings({});
    expect(atDefault.threshold / atDefault.limit).toBeCloseTo(0.25, 2);
    const atLess = await settings({ memoryLimit: '32MB' });
    expect(atLess.threshold).toBe(16 * 2 ** 20);
    const atMore = await settings({ memoryLimit: '256MB' });
    expect(atMore.threshold / atMore.limit).toBeCloseTo(0.25, 2);
  });

  it('takes the configured size as it is', async () => {
    const set = await settings({ memoryLimit: '64MB', checkpointThreshold: '1GB' });
    expect(set.threshold).toBeCloseTo(1e9, -6);
  });

  it('a malformed size is a one-line error from the warehouse and from the config', async () => {
    await expect(openWarehouse(':memory:', { checkpointThreshold: 'lots' })).rejects.toThrow(/^warehouse checkpoint threshold "lots": expected a size/);
    expect(() => validateConfig({ warehouse: { checkpointThreshold: '16 bananas' } })).toThrow(/checkpointThreshold/);
    expect(defaultCheckpointThreshold('1GiB')).toBe('262144KiB');
    expect(defaultCheckpointThreshold('32MB')).toBe('16384KiB');
  });
});
