import type { RouteDef } from './http/route.ts';
import type { World } from './world/world.ts';
import { evmRoutes } from './routes/evm.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { PrimaryWorld } from './primary/primaryWorld.ts';
import { primaryRoutes } from './routes/primary.ts';
import { signatureRoutes } from './routes/signatures.ts';

/**
 * A slice of the simulated API: optional world part plus its routes. The primary-network half
 * plugs in here with one import and one list entry (its module attaches a world part named
 * `primary` via `world.attach` and returns routes from `simulator/routes/primary.ts`).
 */
export interface SimulatorModule {
  name: string;
  /** Attach this module's world part(s); called once per world, before any request. */
  attach?(world: World): void;
  routes(): RouteDef[];
}

export const MODULES: SimulatorModule[] = [
  { name: 'evm', routes: () => evmRoutes },
  { name: 'metrics', routes: () => metricsRoutes },
  // Primary network + signature aggregation (its own world part, grown with the world's steps).
  { name: 'primary', attach: (world) => world.attach('primary', new PrimaryWorld(world.seed, world.size)), routes: () => [...primaryRoutes, ...signatureRoutes] },
];
