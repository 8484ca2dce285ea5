import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root of the code under test. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The newest released entry of CHANGELOG.md (not "Unreleased"), or the entry of `version` when given:
 * its version and `Commit:` line.
 */
export function previousRelease(changelog = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8'), wanted?: string): { version: string; commit: string } {
  const entries = changelog.split(/^## /m).slice(1);
  for (const entry of entries) {
    const heading = entry.split('\n')[0].trim();
    if (/^unreleased/i.test(heading)) continue;
    const version = heading.split(/\s/)[0];
    if (wanted !== undefined && version !== wanted) continue;
    const commit = /^Commit:\s*([0-9a-f]{7,40})\s*$/m.exec(entry)?.[1];
    if (!commit) throw new Error(`CHANGELOG.md: release ${version} names no "Commit:" line`);
    return { version, commit };
  }
  throw new Error(wanted === undefined ? 'CHANGELOG.md names no released version' : `CHANGELOG.md names no release ${wanted}`);
}

/**
 * The warehouse schema version a release's tree writes: its `WAREHOUSE_SCHEMA_VERSION`, or 1 for a
 * release that recorded none (0.1.0, whose tree has no schemaVersion.ts).
 */
export function releaseSchemaVersion(dir: string): number {
  const file = join(dir, 'activities', 'warehouse', 'schemaVersion.ts');
  if (!existsSync(file)) return 1;
  const version = /export const WAREHOUSE_SCHEMA_VERSION = (\d+);/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!version) throw new Error(`${file}: no WAREHOUSE_SCHEMA_VERSION`);
  return Number(version);
}

export interface BuiltRelease {
  version: string;
  commit: string;
  dir: string;
  /** `node <dir>/bin/glacier-etl.js` */
  bin: string;
  /** Seconds spent on checkout, install and build. */
  buildSeconds: number;
  remove(): void;
}

/**
 * Checks the previous release out in a temporary git worktree (`git worktree add --detach`), installs
 * its dependencies from the npm cache where it can (`npm install --prefer-offline`: that release's
 * lock may predate platform entries npm ci insists on) and builds it (its `prepare`). remove()
 * deletes the worktree (`git worktree remove --force`); call it in a finally.
 */
export function buildPreviousRelease(log: (line: string) => void = () => undefined, wanted?: string): BuiltRelease {
  const started = Date.now();
  const { version, commit } = previousRelease(undefined, wanted);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    throw new Error(`release ${version}'s commit ${commit} is not in this clone (a shallow clone? git fetch --unshallow)`);
  }
  const dir = join(mkdtempSync(join(tmpdir(), `glacier-release-${version}-`)), 'tree');
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
      try {
        git('worktree', 'prune');
      } catch {
        // nothing left to prune
      }
    }
    rmSync(join(dir, '..'), { recursive: true, force: true });
  };
  git('worktree', 'add', '--detach', dir, commit);
  try {
    log(`release ${version} (${commit.slice(0, 9)}) checked out in ${dir}; npm install`);
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', npm_config_yes: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (install.status !== 0) throw new Error(`npm install of release ${version} failed (exit ${install.status}): ${(install.stderr || install.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    if (!existsSync(join(dir, 'dist', 'cli', 'main.js'))) throw new Error(`release ${version} did not build (no dist/cli/main.js)`);
  } catch (error) {
    remove();
    throw error;
  }
  return { version, commit, dir, bin: join(dir, 'bin', 'glacier-etl.js'), buildSeconds: (Date.now() - started) / 1000, remove };
}

