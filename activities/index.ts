import type { Logger } from '../worker/logger.ts';

/** What activities are built from; the worker injects real ones, tests may inject others. */
export interface ActivityDeps {
  logger: Logger;
}

/** Builds the activity functions from their dependencies (no module-level state). */
export function createActivities(deps: ActivityDeps) {
  return {
    async ping(name: string): Promise<string> {
      deps.logger.debug({ name }, 'ping');
      return `pong ${name}`;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
