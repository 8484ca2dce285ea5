import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workflowsPath } from './workflowsPath.ts';

/**
 * The workflow bundle, built once per version of the code into the per-user cache
 * (~/.cache/glacier-etl/workflow-bundles/<hash>.js) by a short-lived child process. A worker that
 * bundled on start-up would carry webpack's peak memory for its whole life and pay seconds per start.
 */

/** The sources' root, or dist/ for the compiled CLI: the bundle is built from whichever runs. */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** `.ts` from the sources, `.js` from dist/. */
const SOURCE_EXT = extname(import.meta.url);
/** Directories whose sources can reach the bundle (workflows import the kernel's names and activity types). */
const SOURCE_DIRS = ['common', 'workflows', 'activities', 'worker'];

function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(SOURCE_EXT)) hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(ROOT, dir));
  const sdkManifest = createRequire(import.meta.url).resolve('@temporalio/workflow/package.json');
  const sdk = JSON.parse(readFileSync(sdkManifest, 'utf8')) as { version: string };
  return hash.update(sdk.version).digest('hex').slice(0, 16);
}

export function bundleCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glacier-etl', 'workflow-bundles');
}

/** Bundles kept besides the current one: the most recently used, and any used within a day. */
const KEEP_BUNDLES = 5;
const KEEP_MS = 86_400_000;
const BUNDLE_NAME = /^[0-9a-f]{16}\.js$/;

/**
 * Removes bundles of older code versions (1.7 MB each): all but the KEEP_BUNDLES most recently used
 * (a bundle's mtime is touched on every use), and never one used within the last day, so a worker
 * of another checkout that is starting right now keeps its file.
 */
export function pruneWorkflowBundles(dir: string, current: string, now = Date.now()): string[] {
  const bundles = readdirSync(dir)
    .filter((name) => BUNDLE_NAME.test(name) && join(dir, name) !== current)
    .map((name) => ({ path: join(dir, name), used: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  const removed: string[] = [];
  for (const [i, b] of bundles.entries()) {
    if (i < KEEP_BUNDLES || now - b.used < KEEP_MS) continue;
    rmSync(b.path, { force: true });
    removed.push(b.path);
  }
  return removed;
}

/** Path of the bundle for the current sources, building it first when the cache has none. */
export async function ensureWorkflowBundle(): Promise<string> {
  const dir = bundleCacheDir();
  const path = join(dir, `${sourceHash()}.js`);
  if (existsSync(path)) {
    markUsed(path);
    return path;
  }
  mkdirSync(dir, { recursive: true });
  const script = fileURLToPath(import.meta.url);
  // From the sources the child needs tsx (resolved from this package, so any working directory
  // works); the compiled CLI runs the compiled file as it is.
  const loader = SOURCE_EXT === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];
  const child = spawn(process.execPath, [...loader, script, path], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(path)) throw new Error(`building the workflow bundle failed (exit ${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`);
  pruneWorkflowBundles(dir, path);
  return path;
}

/** Touches a bundle's mtime, which pruning reads as its last use (best effort: a read-only cache still works). */
function markUsed(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // not ours to touch: pruning then just sees an older use
  }
}

/** Child process: bundle the workflows and write the file atomically (concurrent builders race harmlessly). */
async function buildInto(path: string): Promise<void> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const noop = () => undefined;
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop } });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildInto(process.argv[2]);
}
