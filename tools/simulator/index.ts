/** The offline Data API: a deterministic synthetic world served over HTTP. */
export { startSimulator } from './server.ts';
export type { Simulator, SimulatorOptions } from './server.ts';
export type { FaultKind } from './http/faults.ts';
export { FAULT_KINDS } from './http/faults.ts';
export type { Tier, ApiKey } from './http/auth.ts';
export { TIERS } from './http/auth.ts';
export type { RouteDef, RequestContext, PageHelper } from './http/route.ts';
export { ApiError } from './http/apiError.ts';
export type { ErrorBody } from './http/apiError.ts';
export { World } from './world/world.ts';
export type { WorldDescription, WorldPart } from './world/world.ts';
export { WORLD_SIZES } from './world/size.ts';
export type { WorldSize, WorldSizeName } from './world/size.ts';
export type { SimulatorStats, RequestLogEntry } from './http/stats.ts';
