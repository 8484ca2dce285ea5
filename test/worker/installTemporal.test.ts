import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { installActionOf } from '../../worker/temporalBinary.ts';

/**
 * scripts/install-temporal.sh on a machine without the CLI: it must say what it builds and report
 * progress while `go install` runs, never go silent for minutes. A stand-in `go` on PATH writes what
 * `go install -v` writes (downloads, then one line per compiled package) over a few seconds and
 * drops a binary into GOBIN, so the test exercises the script's own logic without a 3-minute build.
 */
const script = fileURLToPath(new URL('../../scripts/install-temporal.sh', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'glacier-install-temporal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeGo(binDir: string, exitCode = 0): void {
  mkdirSync(binDir, { recursive: true });
  const go = join(binDir, 'go');
  writeFileSync(
    go,
    [
      '#!/usr/bin/env bash',
      'echo "go: downloading go.temporal.io/server v1.29.0" >&2',
      'echo "go: downloading google.golang.org/grpc v1.72.0" >&2',
      'for i in $(seq 1 12); do echo "example.com/pkg$i" >&2; sleep 0.25; done',
      exitCode ? `echo "pkg12: compile error" >&2; exit ${exitCode}` : 'printf "#!/bin/sh\\necho temporal version 1.5.1\\n" > "$GOBIN/temporal"; chmod +x "$GOBIN/temporal"',
    ].join('\n'),
  );
  chmodSync(go, 0o755);
}

function install(binDir: string, toolsDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { HOME: dir, PATH: `${binDir}:/usr/bin:/bin`, GLACIER_TOOLS_DIR: toolsDir, GLACIER_PROGRESS_SECONDS: '1' };
    const child = spawn('bash', [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('install-temporal.sh', () => {
  it('says what it builds, reports elapsed time and package counts while go install runs, prints only the path on stdout', async () => {
    const bin = join(dir, 'ok-bin');
    const tools = join(dir, 'ok-tools');
    fakeGo(bin);
    const r = await install(bin, tools);
    expect(r.code).toBe(0);
    const dest = join(tools, 'temporal-v1.5.1', 'temporal');
    expect(r.stdout.trim()).toBe(dest);
    expect(existsSync(dest)).toBe(true);
    expect(r.stderr).toMatch(/building the Temporal CLI v1\.5\.1 .*go install/);
    const beats = r.stderr.split('\n').filter((l) => /^install-temporal: +\d+ s: 2 modules fetched, \d+ packages compiled/.test(l));
    expect(beats.length).toBeGreaterThanOrEqual(1);
    expect(r.stderr).toMatch(/built in \d+ s \(12 packages compiled\)/);
    // Second run: cached, silent, immediate.
    const again = await install(bin, tools);
    expect(again.stdout.trim()).toBe(dest);
    expect(again.stderr).toBe('');
    // What the demo's summary reports as one-time setup (worker/temporalBinary.ts reads the messages).
    expect([installActionOf(r.stderr), installActionOf(again.stderr)]).toEqual(['built', undefined]);
  });

  it('a failed build ends non-zero with the tail of go\'s output', async () => {
    const bin = join(dir, 'bad-bin');
    fakeGo(bin, 2);
    const r = await install(bin, join(dir, 'bad-tools'));
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/go install failed/);
    expect(r.stderr).toMatch(/pkg12: compile error/);
  });
});
