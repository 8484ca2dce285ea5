/** Workflow ids are derived from partition ids, so one partition can never run twice at once. */
export function partitionWorkflowId(partitionId: string, taskQueue: string): string {
  return `glacier-partition:${taskQueue}:${partitionId}`;
}

export function pipelineWorkflowId(mode: 'backfill' | 'sync', taskQueue: string): string {
  return `glacier-${mode}:${taskQueue}`;
}
