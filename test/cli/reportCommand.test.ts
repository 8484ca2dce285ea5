import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { runCli } from '../helpers/runCli.ts';

describe('glacier-etl report: arguments and an empty warehouse', () => {
  let dir: string;
  const env = () => ({ GLACIER_DATA_DIR: join(dir, 'data'), GLACIER_CONFIG: '' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'glacier-report-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without a warehouse: one line, exit 1', async () => {
    const result = await runCli(['report'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^glacier-etl: report: no warehouse at .*warehouse\.duckdb: run backfill first\n$/);
  });

  it('bad --out values: one line each, exit 1; an unknown option exits 2', async () => {
    const warehouse = await openWarehouse(join(dir, 'data', 'warehouse.duckdb'));
    await warehouse.close();
    mkdirSync(join(dir, 'out.html'));
    for (const [out, message] of [
      [join(dir, 'out.html'), /is a directory/],
      [join(dir, 'missing', 'r.html'), /directory .*missing does not exist/],
      [join(dir, 'report.txt'), /should end in \.html/],
    ] as const) {
      const result = await runCli(['report', '--out', out], { env: env() });
      expect(result.code, out).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const both = await runCli(['report', '--json', '--out', join(dir, 'r.html')], { env: env() });
    expect(both.code).toBe(1);
    expect(both.stderr).toBe('glacier-etl: report: --json prints the data and writes no page: drop --out\n');
    const unknown = await runCli(['report', '--bogus'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an empty warehouse gives a page that says so, written atomically (no temp file left)', async () => {
    const result = await runCli(['report'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const page = readFileSync(join(dir, 'data', 'report.html'), 'utf8');
    expect(page).toContain('no partition synced yet');
    expect(page).toContain('no data for this chart');
    expect(page).not.toContain('<canvas');
    expect(readdirSync(join(dir, 'data')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(page).toContain('no sync run recorded its size yet');
  });

  it('--json prints the data and writes no page: an empty warehouse has no nights', async () => {
    rmSync(join(dir, 'data', 'report.html'), { force: true });
    const result = await runCli(['report', '--json'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as { nights: unknown[]; partitions: unknown[] };
    expect(data.nights).toEqual([]);
    expect(data.partitions).toEqual([]);
    expect(readdirSync(join(dir, 'data'))).not.toContain('report.html');
  });
});
