import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { DevServer } from '../../worker/devServer.ts';
import { createActivities } from '../../activities/index.ts';
import { releaseSignal, waitForSignalWorkflow } from '../helpers/workflows/index.ts';
import { startTestWorker } from '../helpers/testWorker.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';

describe('embedded dev server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-devserver-'));
  const server = new DevServer({ dataDir: dir, headless: true });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a started workflow across a restart of the server process', async () => {
    await server.start();
    const workflowId = 'survives-restart';
    const taskQueue = 'restart-test';
    {
      const connection = await Connection.connect({ address: server.address });
      await new Client({ connection }).workflow.start(waitForSignalWorkflow, { taskQueue, workflowId });
      await connection.close();
    }
    await server.restart();
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection });
    const handle = client.workflow.getHandle(workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    // The restarted server still drives it to completion.
    const tw = await startTestWorker({ activities: createActivities({ logger: capturedLogger().logger }), address: server.address, taskQueue });
    const result = await tw.run(async () => {
      await handle.signal(releaseSignal, 'after-restart');
      return handle.result();
    });
    expect(result).toBe('after-restart');
    await tw.close();
    await connection.close();
  });
});
