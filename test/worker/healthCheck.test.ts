import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import * as productWorkflows from '../../workflows/index.ts';
import * as testWorkflows from '../helpers/workflows/index.ts';
import { healthCheckWorkflow } from '../helpers/workflows/index.ts';
import { startTestWorker, type TestWorker } from '../helpers/testWorker.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';

describe('workflow on the real dev server', () => {
  let tw: TestWorker;
  beforeAll(async () => {
    tw = await startTestWorker({ activities: createActivities({ logger: capturedLogger().logger }) });
  });
  afterAll(async () => tw?.close());

  it('runs a workflow that calls an activity and records it in history', async () => {
    const workflowId = `health-${tw.taskQueue}`;
    const result = await tw.run(() =>
      tw.client.workflow.execute(healthCheckWorkflow, { taskQueue: tw.taskQueue, workflowId, args: ['glacier'] }),
    );
    expect(result).toBe('pong glacier');
    const history = await tw.client.workflow.getHandle(workflowId).fetchHistory();
    const scheduled = history.events?.filter((e) => e.activityTaskScheduledEventAttributes) ?? [];
    expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)).toEqual(['ping']);
  });

  it('the product bundle\'s entry registers no test-only workflow; the tests\' bundle adds them to it', () => {
    expect(Object.keys(productWorkflows).filter((name) => /healthCheck|waitForSignal|releaseSignal/.test(name))).toEqual([]);
    expect(Object.keys(testWorkflows).sort()).toEqual([...Object.keys(productWorkflows), 'healthCheckWorkflow', 'releaseSignal', 'waitForSignalWorkflow'].sort());
  });
});
