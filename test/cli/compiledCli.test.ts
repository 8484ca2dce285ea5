import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The compiled CLI as a user runs it: bin/glacier-etl.js on dist/ (built by `prepare`). Every
 * module the process loads is recorded through a resolve hook, so the test sees that no TypeScript
 * source and no TypeScript compiler is loaded, and that the simulator loads only for `demo`.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin', 'glacier-etl.js');
const dir = mkdtempSync(join(tmpdir(), 'glacier-compiled-'));
const hook = join(dir, 'recordLoads.mjs');

/** Newest modification time of the files the build reads. */
function newestSource(): number {
  let newest = statSync(join(root, 'tsconfig.build.json')).mtimeMs;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ['common', 'cli', 'worker', 'activities', 'workflows', 'tools']) walk(join(root, d));
  return newest;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  loaded: string[];
}

function runCompiled(args: string[], timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', hook, bin, ...args], { cwd: dir, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const loaded = stderr.split('\n').filter((l) => l.startsWith('LOADED ')).map((l) => l.slice(7));
      resolve({ code, stdout, stderr: stderr.split('\n').filter((l) => !l.startsWith('LOADED ')).join('\n'), loaded });
    });
  });
}

const own = (loaded: string[]) => loaded.filter((u) => u.startsWith('file:') && !u.includes('/node_modules/'));

beforeAll(() => {
  const main = join(root, 'dist', 'cli', 'main.js');
  // CI and `npm install` have built dist/ already; a developer's edited sources get a fresh build.
  if (!existsSync(main) || statSync(main).mtimeMs < newestSource()) {
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  }
  writeFileSync(
    hook,
    [
      "import { register } from 'node:module';",
      "register('data:text/javascript,' + encodeURIComponent(`export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('LOADED ' + r.url + '\\\\n'); return r; }`));",
    ].join('\n'),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compiled CLI (bin/glacier-etl.js on dist/)', () => {
  it('--help runs compiled code only: no .ts module, no tsx, no simulator, no Temporal, DuckDB or config schema', async () => {
    const r = await runCompiled(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+demo\b/m);
    expect(r.loaded.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(r.loaded.filter((u) => u.endsWith('.ts') || u.includes('/node_modules/tsx/') || u.includes('/node_modules/typescript/'))).toEqual([]);
    // Not even the simulator's constants: the options that name them are parsed in the actions.
    expect(own(r.loaded).filter((u) => u.includes('/dist/tools/'))).toEqual([]);
    expect(r.loaded.filter((u) => /node_modules\/(@temporalio|@duckdb|zod|yaml)\//.test(u))).toEqual([]);
  });

  it('config check resolves a config without loading the simulator', async () => {
    const file = join(dir, 'cfg.yaml');
    writeFileSync(file, 'networks:\n  - network: fuji\n    chains: [p-chain]\n');
    const r = await runCompiled(['--config', file, 'config', 'check']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).networks[0].network).toBe('fuji');
    expect(own(r.loaded).filter((u) => u.includes('/dist/tools/'))).toEqual([]);
  });

  it('a bad config is one line and a non-zero exit (errors classified from the compiled config module)', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'api:\n  concurrency: "eight"\n');
    const r = await runCompiled(['--config', file, 'config', 'check']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^glacier-etl: .*api\.concurrency/);
  });

  it('demo --size tiny: simulator, embedded Temporal, worker and workflow bundle all from dist/, verify clean', async () => {
    const r = await runCompiled(['demo', '--size', 'tiny', '--data-dir', join(dir, 'data')], 170_000);
    expect(r.stderr).not.toMatch(/glacier-etl: /);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/verify: +no problems/);
    expect(r.stdout).toMatch(/demo: (\d+)\/\1 partitions/);
    expect(own(r.loaded).some((u) => u.endsWith('/dist/tools/simulator/server.js'))).toBe(true);
    expect(r.loaded.filter((u) => u.endsWith('.ts'))).toEqual([]);
  }, 180_000);
});
