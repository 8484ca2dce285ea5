import {
  ChildWorkflowFailure,
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  defineQuery,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import type { ExportSummary } from '../activities/ports.ts';
import type { StreamName } from '../common/streamNames.ts';
import { partitionWorkflow, type PartitionWorkflowResult } from './partition.ts';
import { partitionWorkflowId } from './workflowIds.ts';

export interface PipelineInput {
  mode: 'backfill' | 'sync';
  streams?: StreamName[];
  partitionConcurrency: number;
  maxPagesPerBatch: number;
  /** How long one batch activity keeps committing batches (workflows/partition.ts; default 10 s, 0: one batch per activity). */
  activityBudgetMs?: number;
  /** Export Parquet when every partition is done. */
  exportParquet: boolean;
}

export type PartitionState = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface PipelinePartitionStatus {
  partitionId: string;
  stream: StreamName;
  state: PartitionState;
  workflowId: string;
  rows: number;
  pages: number;
  error?: string;
}

export interface PipelineStatus {
  mode: PipelineInput['mode'];
  phase: 'planning' | 'syncing' | 'derived' | 'exporting' | 'done';
  snapshotAt: number;
  partitions: PipelinePartitionStatus[];
  exported?: ExportSummary;
}

export const pipelineStatusQuery = defineQuery<PipelineStatus>('status');

const { planPartitions, exportParquet } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumInterval: '1 minute' },
});

/**
 * One pipeline run: plans partitions, runs one child workflow per partition (deterministic id, at
 * most `partitionConcurrency` at once), then the partitions derived from what the first wave found
 * (rewards for discovered validators), then the Parquet export. A failed partition is recorded with
 * its error; the others finish.
 */
export async function pipelineWorkflow(input: PipelineInput): Promise<PipelineStatus> {
  const info = workflowInfo();
  const status: PipelineStatus = {
    mode: input.mode,
    phase: 'planning',
    snapshotAt: Math.floor(Date.now() / 1000),
    partitions: [],
  };
  setHandler(pipelineStatusQuery, () => status);
  const runId = `${info.workflowId}/${info.runId}`;

  const runWave = async (partitions: PartitionSpec[]) => {
    const fresh = partitions.filter((p) => !status.partitions.some((s) => s.partitionId === p.id));
    const entries = fresh.map((p) => {
      const entry: PipelinePartitionStatus = { partitionId: p.id, stream: p.stream, state: 'pending', workflowId: partitionWorkflowId(p.id, info.taskQueue), rows: 0, pages: 0 };
      status.partitions.push(entry);
      return { spec: p, entry };
    });
    let next = 0;
    const lane = async () => {
      while (next < entries.length) {
        const { spec, entry } = entries[next++];
        await runPartition(spec, entry);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, input.partitionConcurrency) }, lane));
  };

  const runPartition = async (spec: PartitionSpec, entry: PipelinePartitionStatus) => {
    entry.state = 'running';
    try {
      const child = await startChild(partitionWorkflow, {
        workflowId: entry.workflowId,
        args: [{ partition: spec, mode: input.mode, runId, snapshotAt: status.snapshotAt, maxPagesPerBatch: input.maxPagesPerBatch, activityBudgetMs: input.activityBudgetMs }],
        // A closed partition workflow may run again; a running one is never started twice.
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      });
      const result: PartitionWorkflowResult = await child.result();
      entry.rows = result.rows;
      entry.pages = result.pages;
      entry.state = 'done';
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        entry.state = 'skipped';
        entry.error = 'partition already running in another workflow';
        return;
      }
      entry.state = 'failed';
      entry.error = rootMessage(error);
    }
  };

  status.phase = 'syncing';
  await runWave(await planPartitions({ streams: input.streams, discovered: false, runId, mode: input.mode, snapshotAt: status.snapshotAt }));
  status.phase = 'derived';
  await runWave(await planPartitions({ streams: input.streams, discovered: true, runId, mode: input.mode, snapshotAt: status.snapshotAt }));
  if (input.exportParquet) {
    status.phase = 'exporting';
    status.exported = await exportParquet({});
  }
  status.phase = 'done';
  return status;
}

function rootMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof ChildWorkflowFailure || (current instanceof Error && current.cause instanceof Error)) {
    current = (current as Error).cause;
  }
  return current instanceof Error ? current.message : String(current);
}
