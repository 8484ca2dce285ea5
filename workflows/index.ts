// Every workflow the worker registers. Deterministic code only (see eslint.config.js). Workflows only
// tests use live in test/helpers/workflows/, bundled with these by test/globalSetup.ts.
export { partitionWorkflow, partitionProgressQuery } from './partition.ts';
export { pipelineWorkflow, pipelineStatusQuery } from './pipeline.ts';
export { exportWorkflow, reportWorkflow, statusWorkflow, verifyWorkflow } from './maintenance.ts';
export { shardedExportWorkflow, shardedStatusWorkflow, shardedVerifyWorkflow } from './shards.ts';
