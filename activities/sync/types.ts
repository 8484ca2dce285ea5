/**
 * The contract between orchestration (workflows/, activities/index.ts) and the sync core. The types
 * live in the shared kernel (common/activityTypes.ts), below every folder of activities/; the
 * orchestration keeps importing them from here.
 */
export type { BatchInput, BatchResult, CheckpointView, PartitionProgress, PartitionSpec, PlanInput, SyncMode } from '../../common/activityTypes.ts';
