// Every response and resource schema of the Data API, with their inferred types.
export * from './common.ts';
export * from './primaryNetwork.ts';
export * from './evm.ts';
export * from './metrics.ts';
export * from './signatureAggregation.ts';
export { decimal, integer, number, boolean, enumString } from './fields.ts';
