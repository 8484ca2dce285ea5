import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { DevServer } from '../../worker/devServer.ts';
import { runCli } from '../helpers/runCli.ts';

/** `schedule create` through the CLI against a dev server: what the schedule's runs are asked to do. */

let dir: string;
let server: DevServer;
let connection: Connection;
let env: NodeJS.ProcessEnv;
let configPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-schedule-create-'));
  server = await new DevServer({ dataDir: join(dir, 'temporal'), headless: true }).start();
  connection = await Connection.connect({ address: server.address });
  configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, toYaml({ dataDir: join(dir, 'data'), temporal: { taskQueue: 'schedule-create-test' } }));
  env = { TEMPORAL_ADDRESS: server.address, LOG_LEVEL: 'warn' };
}, 120_000);

afterAll(async () => {
  await connection?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The first argument of the schedule's pipeline run. */
async function runInput(id: string): Promise<Record<string, unknown>> {
  const described = await new Client({ connection }).schedule.getHandle(id).describe();
  const action = described.action as { args?: unknown[] };
  return action.args![0] as Record<string, unknown>;
}

describe('schedule create', () => {
  it('exports the lake at the end of each run by default, and not with --no-export', async () => {
    for (const [id, flags] of [['with-lake', []], ['without-lake', ['--no-export']]] as const) {
      const r = await runCli(['--config', configPath, 'schedule', 'create', '--cron', '0 3 * * *', '--id', id, '--full-verify-cron', 'none', ...flags], { env, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await runInput('with-lake')).toMatchObject({ mode: 'sync', exportParquet: true, verify: 'changed' });
    expect(await runInput('without-lake')).toMatchObject({ mode: 'sync', exportParquet: false, verify: 'changed' });
  }, 120_000);
});
