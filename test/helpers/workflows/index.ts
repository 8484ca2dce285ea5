/**
 * The workflow bundle tests run: every product workflow, plus workflows only tests use. These live
 * here, outside the product bundle (workflows/index.ts), and test/globalSetup.ts bundles this file.
 */
export * from '../../../workflows/index.ts';
export { healthCheckWorkflow } from './healthCheck.ts';
export { releaseSignal, waitForSignalWorkflow } from './waitForSignal.ts';
