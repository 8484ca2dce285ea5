import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type * as SimulatorTool from '../tools/simulator/index.ts';
import { UserError } from './userError.ts';

/**
 * The product's one door to the simulator (tools/simulator), opened only by the `demo` and
 * `simulator` actions. The worker image leaves tools/ out, so there the door reports a missing
 * tool in one line while `--help` and every other command run as usual. Lint keeps every other
 * product module away from tools/ (eslint.config.js).
 */
export type { ApiKey, FaultKind, SimulatorOptions, Tier, WorldDescription, WorldSize, WorldSizeName } from '../tools/simulator/index.ts';
/** The simulator's module: startSimulator and the vocabulary its options use (WORLD_SIZES, TIERS, FAULT_KINDS). */
export type SimulatorModule = typeof SimulatorTool;

/** The simulator's entry beside this module: `.ts` in a clone run from the sources, `.js` under dist/. */
const ENTRY = new URL(`../tools/simulator/index${extname(import.meta.url)}`, import.meta.url);

export const SIMULATOR_MISSING = 'the simulator is not installed here (tools/simulator is left out of the worker image): run demo and simulator from a clone';

/** The simulator module, or a UserError where it is not installed. */
export async function loadSimulator(): Promise<SimulatorModule> {
  // Checked before importing: a simulator that is present but fails to load must say why, not "missing".
  if (!existsSync(ENTRY)) throw new UserError(SIMULATOR_MISSING);
  try {
    return await import('../tools/simulator/index.ts');
  } catch (error) {
    // Its own packages (@noble/curves, ...) are devDependencies: a clone installed with --omit=dev lacks them.
    const missing = /^Cannot find package '([^']+)'/.exec((error as Error).message);
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && missing) throw new UserError(`the simulator's package ${missing[1]} is not installed (it is a devDependency): run npm install without --omit=dev`);
    throw error;
  }
}
