// Every response and resource schema of the Data API, with their inferred types.
export * from './common.ts';
export * from './primaryNetwork.ts';
export * from './evm.ts';
export * from './metrics.ts';
export * from './signatureAggregation.ts';
export { decimal, integer, number, boolean } from './fields.ts';
export { ENUMERATIONS, type EnumerationName } from './enumerations.ts';
