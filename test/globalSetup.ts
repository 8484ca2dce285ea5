import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadExtensions } from '../activities/warehouse/extensions.ts';
import { DevServer } from '../worker/devServer.ts';

/** The product's workflows plus the ones only tests use (test/helpers/workflows/index.ts). */
const testWorkflowsPath = fileURLToPath(new URL('./helpers/workflows/index.ts', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

/**
 * One real Temporal dev server (from the pinned binary) for the whole test run, the lake's DuckDB
 * extensions in the per-user cache (activities/warehouse/extensions.ts), and the workflow
 * bundle built once, so each test file only starts a worker on its own task queue. The bundle holds
 * the product's workflows and the test-only ones, which the product bundle leaves out.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-etl-test-'));
  // The lake's DuckDB extensions into the per-user cache once, before test files load them at once.
  const duck = await DuckDBInstance.create(':memory:');
  await loadExtensions(await duck.connect(), ['ducklake', 'sqlite_scanner']);
  duck.closeSync();
  const server = await new DevServer({ dataDir: join(dir, 'temporal'), headless: true }).start();
  const { code } = await bundleWorkflowCode({ workflowsPath: testWorkflowsPath, logger: quietBundlerLogger });
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, code);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', workflowBundlePath);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

const noop = () => undefined;
const quietBundlerLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop };
