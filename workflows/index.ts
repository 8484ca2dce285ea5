// Every workflow the worker registers. Deterministic code only (see eslint.config.js).
export { healthCheckWorkflow } from './healthCheck.ts';
export { waitForSignalWorkflow, releaseSignal } from './waitForSignal.ts';
