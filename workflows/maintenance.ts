import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ExportSummary, StorageVersions, VerifyFinding } from '../activities/ports.ts';
import type { CheckpointView } from '../activities/sync/types.ts';
import type { ReportData } from '../activities/report/reportData.ts';
import type { StreamCost } from '../activities/sync/streamCosts.ts';
import type { StreamName } from '../common/streamNames.ts';
import { STORAGE_VERSIONS_PATCH } from './patches.ts';

// Warehouse reads and exports run as activities so the one worker process that owns the DuckDB
// file does them, whether the CLI embeds the worker or talks to a remote cluster.
const acts = proxyActivities<Activities>({ startToCloseTimeout: '30 minutes', retry: { maximumAttempts: 3 } });

/**
 * Checkpoints, per-stream CU accounting and the warehouse and lake versions, for `status`. The
 * versions are a third activity since 0.2.0, behind a patch so a status run of 0.1.0 in flight
 * replays as it ran.
 */
export async function statusWorkflow(): Promise<{ checkpoints: CheckpointView[]; costs: StreamCost[]; storage?: StorageVersions }> {
  const checkpoints = await acts.listCheckpoints();
  const costs = await acts.streamCosts();
  if (!patched(STORAGE_VERSIONS_PATCH)) return { checkpoints, costs };
  return { checkpoints, costs, storage: await acts.storageVersions() };
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
