import type { RouteDef } from '../http/route.ts';

/** Holder metrics (metrics listener). */
export const metricsRoutes: RouteDef[] = [];
