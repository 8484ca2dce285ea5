import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { verifyWorkflow } from '../../workflows/maintenance.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';
import { startTestWorker, type TestWorker } from '../helpers/testWorker.ts';

/**
 * An activity with no progress of its own to report (verify here; the export, retention, planning
 * and the report alike) heartbeats while it runs, so a worker killed in it is noticed within the
 * heartbeat timeout: without, the crash campaign's pipeline waited the 30-minute start-to-close
 * timeout of an applyRetention whose worker was SIGKILLed.
 */

let tw: TestWorker;
let release: () => void = () => undefined;

beforeAll(async () => {
  const { logger } = capturedLogger('silent');
  const activities = createActivities({ logger, verifier: { verify: () => new Promise((resolve) => (release = () => resolve([]))) } });
  tw = await startTestWorker({ activities, prefix: 'heartbeat' });
});
afterAll(async () => {
  release();
  await tw?.close();
});

describe('a long activity without progress of its own', () => {
  it('heartbeats while it runs', async () => {
    await tw.run(async () => {
      const handle = await tw.client.workflow.start(verifyWorkflow, { taskQueue: tw.taskQueue, workflowId: `heartbeat-${randomUUID()}`, args: [{ mode: 'full' }] });
      let beat: unknown;
      for (let i = 0; i < 40 && !beat; i++) {
        await new Promise((r) => setTimeout(r, 500));
        beat = (await handle.describe()).raw.pendingActivities?.[0]?.lastHeartbeatTime;
      }
      release();
      expect(beat, 'no heartbeat recorded in 20 s').toBeTruthy();
      expect(await handle.result()).toEqual([]);
    });
  }, 60_000);
});
