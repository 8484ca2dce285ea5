import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../helpers/files.ts';

/**
 * The worker image without a Docker daemon: the Dockerfile's own COPY lists are read and replayed in
 * a temporary directory (the build stage's inputs from the repository, then the final stage's files
 * from that build), and the build runs as `npm ci` runs it there (its `prepare` script, the bundle
 * skipped). The image must hold no simulator code, and `demo` / `simulator` must say so in one line
 * while the rest of the CLI works. node_modules is linked from the clone (npm ci would need the
 * registry); the Dockerfile's RUN line is checked to be the build replayed here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'glacier-image-'));
const buildDir = join(dir, 'build');
const appDir = join(dir, 'app');

interface Stage {
  name: string | undefined;
  copies: { from: string | undefined; sources: string[]; dest: string }[];
  runs: string[];
}

/** The stages of a Dockerfile with their COPY and RUN instructions (one instruction a line, as ours is written). */
function readDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) stages.push({ name: from[1], copies: [], runs: [] });
    else if (/^COPY\s/i.test(line)) {
      const words = line.split(/\s+/).slice(1);
      const flag = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
      stages.at(-1)!.copies.push({ from: flag, sources: words.slice(0, -1), dest: words.at(-1)! });
    } else if (/^RUN\s/i.test(line)) stages.at(-1)!.runs.push(line.slice(4));
  }
  return stages;
}

/** Replays one COPY into `target` (the stage's WORKDIR, /app): from the build context or another stage's /app. */
function replayCopy(copy: Stage['copies'][number], contextDir: string, target: string): void {
  for (const source of copy.sources) {
    const from = join(contextDir, copy.from ? relative('/app', source) : source);
    const to = copy.dest.endsWith('/') ? join(target, copy.dest, basename(source)) : join(target, copy.dest);
    mkdirSync(join(to, '..'), { recursive: true });
    // node_modules: linked, not copied (the clone's, with dev dependencies: the build needs TypeScript).
    if (basename(source) === 'node_modules') symlinkSync(join(root, 'node_modules'), to);
    else cpSync(from, to, { recursive: true });
  }
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, args, { cwd, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `base`, relative to it. */
const relativeFilesUnder = (base: string): string[] => filesUnder(base).map((f) => relative(base, f));

let build: ReturnType<typeof run>;

beforeAll(() => {
  const [buildStage, finalStage] = readDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  expect(buildStage.name).toBe('build');
  // The RUN this test stands in for: `npm ci` (whose `prepare` is the build script), bundle skipped.
  expect(buildStage.runs).toEqual([expect.stringMatching(/^GLACIER_SKIP_BUNDLE=1 npm ci\b/)]);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(manifest.scripts.prepare).toBe('node scripts/build.mjs');

  mkdirSync(buildDir);
  for (const copy of buildStage.copies) replayCopy(copy, root, buildDir);
  symlinkSync(join(root, 'node_modules'), join(buildDir, 'node_modules'));
  build = run(buildDir, ['scripts/build.mjs'], { GLACIER_SKIP_BUNDLE: '1' });

  mkdirSync(appDir);
  for (const copy of finalStage.copies) replayCopy(copy, copy.from === 'build' ? buildDir : root, appDir);
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('worker image (the Dockerfile replayed without Docker)', () => {
  it('builds from its COPY list alone: the build stage has no tools/, and tsc (noCheck) emits without it', () => {
    expect(existsSync(join(buildDir, 'tools'))).toBe(false);
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^build: compiled to dist\/ in /)]);
  });

  it('holds no simulator code: no dist/tools, and only the CLI loader names tools/ (checked before it imports)', () => {
    const files = relativeFilesUnder(join(appDir, 'dist'));
    expect(files).toContain(join('cli', 'main.js'));
    expect(files).toContain(join('worker', 'main.js'));
    expect(files.filter((f) => f.startsWith('tools/') || f.includes('blsTable'))).toEqual([]);
    const importingTools = files.filter((f) => f.endsWith('.js') && /(?:from\s*|import\s*\()\s*['"](?:\.\.\/)+tools\//.test(readFileSync(join(appDir, 'dist', f), 'utf8')));
    expect(importingTools).toEqual([join('cli', 'simulatorLoader.js')]);
  });

  it('demo and simulator fail in one line with a non-zero exit', () => {
    for (const args of [['demo'], ['demo', '--size', 'tiny'], ['simulator', '--size', 'tiny']]) {
      const r = run(appDir, ['bin/glacier-etl.js', ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('glacier-etl: the simulator is not installed here (tools/simulator is left out of the worker image): run demo and simulator from a clone\n');
    }
  });

  it('--help, the help of demo and simulator, and the other commands work', () => {
    const help = run(appDir, ['bin/glacier-etl.js', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^\s+demo\b/m);
    expect(help.stdout).toMatch(/^\s+worker\b/m);
    for (const command of ['demo', 'simulator', 'worker']) {
      const r = run(appDir, ['bin/glacier-etl.js', command, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: glacier-etl ${command}`));
    }
    const check = run(appDir, ['bin/glacier-etl.js', 'config', 'check'], { GLACIER_DATA_DIR: join(dir, 'data') });
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toHaveProperty('streams');
  });
});
