import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLakeLayout, LAKE_LAYOUT_VERSION, LAKE_VERSION_FILE, readLakeLayout } from '../../activities/warehouse/lakeLayout.ts';
import { statusWorkflow } from '../../workflows/index.ts';
import { WAREHOUSE_SCHEMA_VERSION } from '../../activities/warehouse/schemaVersion.ts';
import { startPipelineHarness } from '../helpers/pipelineHarness.ts';
import { lakeDirOf } from '../../worker/paths.ts';

/** The lake's layout version: a lake without the file is 0.1.0's (version 1); a newer one is refused. */
const dir = mkdtempSync(join(tmpdir(), 'glacier-lake-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lake layout version', () => {
  it('a lake without a version file (0.1.0) is version 1 and gets the file at the next export', () => {
    const root = join(dir, 'old');
    mkdirSync(join(root, 'evm_blocks'), { recursive: true });
    expect(readLakeLayout(root)).toBe(1);
    ensureLakeLayout(root);
    expect(JSON.parse(readFileSync(join(root, LAKE_VERSION_FILE), 'utf8'))).toEqual({ layoutVersion: LAKE_LAYOUT_VERSION });
  });

  it('a lake of a newer layout is refused with one line, and nothing is written', () => {
    const root = join(dir, 'newer');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, LAKE_VERSION_FILE), '{"layoutVersion":7}\n');
    expect(() => ensureLakeLayout(root)).toThrow(`Parquet lake ${root} has layout version 7, newer than this glacier-etl writes (version ${LAKE_LAYOUT_VERSION}): upgrade glacier-etl`);
    expect(readdirSync(root)).toEqual([LAKE_VERSION_FILE]);
    expect(readFileSync(join(root, LAKE_VERSION_FILE), 'utf8')).toBe('{"layoutVersion":7}\n');
  });

  it('status reports both versions; a worker refuses a newer lake at start', async () => {
    const h = await startPipelineHarness({ edit: (c) => (c.streams = ['evm.blocks']) });
    try {
      await h.run({ mode: 'backfill', streams: ['evm.blocks'], exportParquet: true });
      expect(existsSync(join(lakeDirOf(h.config), LAKE_VERSION_FILE))).toBe(true);
      const status = await h.tw.run(() => h.tw.client.workflow.execute(statusWorkflow, { taskQueue: h.tw.taskQueue, workflowId: `status-${h.tw.taskQueue}` }));
      expect(status.storage).toEqual({ warehouse: { version: WAREHOUSE_SCHEMA_VERSION, current: WAREHOUSE_SCHEMA_VERSION }, lake: { version: LAKE_LAYOUT_VERSION, current: LAKE_LAYOUT_VERSION } });
      writeFileSync(join(lakeDirOf(h.config), LAKE_VERSION_FILE), `{"layoutVersion":${LAKE_LAYOUT_VERSION + 1}}`);
      const { buildRuntime } = await import('../../worker/runtime.ts');
      await expect(buildRuntime({ ...h.config, dataDir: join(dir, 'other'), lakeDir: lakeDirOf(h.config) }, h.runtime.deps.logger, {})).rejects.toThrow(`has layout version ${LAKE_LAYOUT_VERSION + 1}, newer than this glacier-etl writes (version ${LAKE_LAYOUT_VERSION})`);
    } finally {
      await h.close();
    }
  });
});
