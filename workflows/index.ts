// Every workflow the worker registers. Deterministic code only (see eslint.config.js).
export { healthCheckWorkflow } from './healthCheck.ts';
export { waitForSignalWorkflow, releaseSignal } from './waitForSignal.ts';
export { partitionWorkflow, partitionProgressQuery } from './partition.ts';
export { pipelineWorkflow, pipelineStatusQuery } from './pipeline.ts';
export { checkpointsWorkflow, exportWorkflow, reportWorkflow, statusWorkflow, verifyWorkflow } from './maintenance.ts';
export { shardedExportWorkflow, shardedStatusWorkflow, shardedVerifyWorkflow } from './shards.ts';
