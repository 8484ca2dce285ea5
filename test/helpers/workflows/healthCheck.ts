import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../../activities/index.ts';

const { ping } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds' });

/** Round trip through the worker: proves the client, server, worker and activities are wired. */
export async function healthCheckWorkflow(name: string): Promise<string> {
  return await ping(name);
}
