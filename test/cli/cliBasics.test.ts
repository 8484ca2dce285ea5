import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const dir = mkdtempSync(join(tmpdir(), 'glacier-cli-'));

describe('glacier-etl CLI', () => {
  it('--help lists the commands', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['config', 'worker', 'dev-server']) expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('a config with a wrong type prints one line naming the field and exits non-zero', async () => {
    const file = join(dir, 'bad-type.yaml');
    writeFileSync(file, 'api:\n  concurrency: "eight"\n');
    const { code, stderr, stdout } = await runCli(['--config', file, 'config', 'check']);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/api\.concurrency/);
    expect(lines[0]).toMatch(/expected number/i);
  });

  it('rejects an unknown argument with a non-zero exit', async () => {
    const { code, stderr } = await runCli(['backfil']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/unknown command/);
  });

  it('a valid config resolves with environment overrides and shows no key', async () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(file, 'networks:\n  - network: fuji\n    chains: [p-chain]\n');
    const { code, stdout } = await runCli(['--config', file, 'config', 'check'], {
      env: { GLACIER_BASE_URL: 'http://127.0.0.1:9999', GLACIER_API_KEY: 'sekret-key-1,sekret-key-2' },
    });
    expect(code).toBe(0);
    const resolved = JSON.parse(stdout);
    expect(resolved.api.baseUrl).toBe('http://127.0.0.1:9999');
    expect(resolved.apiKeyCount).toBe(2);
    expect(stdout).not.toContain('sekret');
  });
});
