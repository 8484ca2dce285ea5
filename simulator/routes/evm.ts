import type { RouteDef } from '../http/route.ts';
import { blocksRoute } from './evmBlocks.ts';

/** Every EVM endpoint of the interface. */
export const evmRoutes: RouteDef[] = [blocksRoute];
