// The sync core the orchestration calls (see types.ts for the contract).
export { createSyncCore, type SyncCore, type SyncCoreDeps } from './syncCore.ts';
export type { BatchInput, BatchResult, CheckpointView, PartitionSpec, PlanInput, SyncMode } from './types.ts';
