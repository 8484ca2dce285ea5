#!/usr/bin/env node
// Compiles the shared kernel (common/), CLI, worker, workflows and activities, and the simulator (tools/simulator,
// where present: the worker image leaves tools/ out and builds without it), into dist/
// (gitignored), so bin/glacier-etl.js starts without a TypeScript compiler. Runs as `prepare` on
// every `npm install` / `npm ci` of a clone, and by hand as `npm run build`.
//
// 1. tsc with tsconfig.build.json: emit only (type errors are `npm run typecheck`'s job), relative
//    `.ts` imports rewritten to `.js`, the source tree's layout kept (dist/cli, dist/worker, ...).
// 2. The files the code reads next to itself (sql/, the Temporal installer, the simulator's BLS
//    table, the report page's script) copied to the same places under dist/, so `new URL('../../sql/', import.meta.url)`
//    finds them from either tree.
// 3. The workflow bundle for the compiled workflows built into the per-user cache
//    (worker/workflowBundle.ts), so the first `demo` after an install does not wait for webpack.
//
// The new tree is built beside the old one and swapped in at the end: a failed build leaves the
// previous dist/ as it was.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const next = join(root, '.dist-next');
const started = Date.now();
const say = (line) => process.stderr.write(`build: ${line}\n`);

/** Files read at run time relative to a module, copied to the same relative place under dist/. */
const ASSETS = ['sql', 'scripts/install-temporal.sh', 'tools/simulator/primary/blsTable.bin', 'cli/report/reportPage.js'];

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  say('typescript is not installed (a devDependency): run `npm install` in the clone');
  process.exit(1);
}

rmSync(next, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
if (compiled.status !== 0) {
  rmSync(next, { recursive: true, force: true });
  say(`tsc failed (exit ${compiled.status ?? compiled.signal}); dist/ left unchanged`);
  process.exit(1);
}
for (const asset of ASSETS) {
  const from = join(root, asset);
  if (!existsSync(from)) continue; // the BLS table is optional: the simulator computes missing keys
  mkdirSync(dirname(join(next, asset)), { recursive: true });
  cpSync(from, join(next, asset), { recursive: true });
}
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
say(`compiled to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);

if (process.env.GLACIER_SKIP_BUNDLE) process.exit(0);
const bundleStarted = Date.now();
try {
  const { ensureWorkflowBundle } = await import(pathToFileURL(join(dist, 'worker', 'workflowBundle.js')).href);
  const path = await ensureWorkflowBundle();
  say(`workflow bundle ready (${path}) in ${((Date.now() - bundleStarted) / 1000).toFixed(1)} s`);
} catch (error) {
  // Not fatal: the CLI builds the bundle on first use (same function, same cache).
  say(`workflow bundle not prebuilt (${error instanceof Error ? error.message : String(error)}); the first run builds it`);
}
