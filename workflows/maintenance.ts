import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ExportSummary, VerifyFinding } from '../activities/ports.ts';
import type { CheckpointView } from '../activities/sync/types.ts';
import type { ReportData } from '../activities/report/reportData.ts';
import type { StreamCost } from '../activities/sync/streamCosts.ts';
import type { StreamName } from '../common/streamNames.ts';
import type { DriftRow } from '../activities/warehouse/warehouse.ts';

// Warehouse reads and exports run as activities so the one worker process that owns the DuckDB
// file does them, whether the CLI embeds the worker or talks to a remote cluster.
const acts = proxyActivities<Activities>({ startToCloseTimeout: '30 minutes', retry: { maximumAttempts: 3 } });

/** Checkpoints and per-stream CU accounting, for `status`. */
export async function statusWorkflow(): Promise<{ checkpoints: CheckpointView[]; costs: StreamCost[]; drift?: DriftRow[] }> {
  const checkpoints = await acts.listCheckpoints();
  const costs = await acts.streamCosts();
  // Schema drift (issue 27): a third activity, so histories of 0.1.0 replay without it.
  if (!patched('status-schema-drift')) return { checkpoints, costs };
  return { checkpoints, costs, drift: await acts.listDrift() };
}

export async function exportWorkflow(input: { tables?: string[] }): Promise<ExportSummary> {
  return await acts.exportParquet(input);
}

export async function verifyWorkflow(input: { streams?: StreamName[] }): Promise<VerifyFinding[]> {
  return await acts.verify(input);
}

export async function reportWorkflow(): Promise<ReportData> {
  return await acts.reportData();
}
