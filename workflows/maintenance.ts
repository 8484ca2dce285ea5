import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ExportSummary, StorageVersions, VerifyFinding } from '../activities/ports.ts';
import type { CheckpointView } from '../activities/sync/types.ts';
import type { ReportData } from '../activities/report/reportData.ts';
import type { StreamCost } from '../activities/sync/streamCosts.ts';
import type { StreamName } from '../common/streamNames.ts';
import { SCHEMA_DRIFT_PATCH, STORAGE_VERSIONS_PATCH } from './patches.ts';
import type { DriftRow } from '../activities/warehouse/warehouse.ts';

// Warehouse reads and exports run as activities so the one worker process that owns the DuckDB
// file does them, whether the CLI embeds the worker or talks to a remote cluster.
// The long ones (export, verify, report) heartbeat while they run (activities/index.ts keepAlive), the
// status reads take moments: a worker that dies in one is noticed within the heartbeat timeout.
const acts = proxyActivities<Activities>({ startToCloseTimeout: '30 minutes', heartbeatTimeout: '2 minutes', retry: { maximumAttempts: 3 } });

/**
 * Checkpoints, per-stream CU accounting, the warehouse and lake versions and the schema drift seen,
 * for `status`. The versions and the drift are activities added after 0.1.0, each behind its patch,
 * so a status run of an earlier release in flight replays as it ran.
 */
export async function statusWorkflow(): Promise<{ checkpoints: CheckpointView[]; costs: StreamCost[]; storage?: StorageVersions; drift?: DriftRow[] }> {
  const checkpoints = await acts.listCheckpoints();
  const costs = await acts.streamCosts();
  if (!patched(STORAGE_VERSIONS_PATCH)) return { checkpoints, costs };
  const storage = await acts.storageVersions();
  if (!patched(SCHEMA_DRIFT_PATCH)) return { checkpoints, costs, storage };
  return { checkpoints, costs, storage, drift: await acts.listDrift() };
}

export async function exportWorkflow(input: { tables?: string[]; full?: boolean }): Promise<ExportSummary> {
  return await acts.exportParquet(input);
}

export async function verifyWorkflow(input: { streams?: StreamName[]; mode?: 'full' | 'changed' }): Promise<VerifyFinding[]> {
  return await acts.verify(input);
}

export async function reportWorkflow(): Promise<ReportData> {
  return await acts.reportData();
}
