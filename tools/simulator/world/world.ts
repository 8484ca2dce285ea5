import { EvmWorld } from '../evm/evmWorld.ts';
import type { EvmDescription } from '../evm/evmWorld.ts';
import type { WorldSize } from './size.ts';

/**
 * A part of the world owned by another module (the primary-network half attaches one). It grows
 * with the same steps as the EVM chains and contributes to `describe()`.
 */
export interface WorldPart {
  advance?(steps: number): void;
  describe?(): unknown;
}

/** What configs for tests and the demo are built from: ids and samples that exist in this world. */
export interface WorldDescription {
  seed: number;
  size: WorldSize;
  steps: number;
  evm: EvmDescription;
  /** One entry per attached part, e.g. `primary`: bech32 addresses, node ids... */
  [part: string]: unknown;
}

/**
 * The synthetic world: pure functions of (seed, size, steps). Nothing is materialized, so any item
 * of any size of world is computed on demand; `steps` is the only mutable state (growth).
 */
export class World {
  readonly seed: number;
  readonly size: WorldSize;
  readonly evm: EvmWorld;
  private stepCount = 0;
  private readonly parts = new Map<string, WorldPart>();
  private readonly listeners: ((steps: number) => void)[] = [];

  constructor(seed: number, size: WorldSize) {
    this.seed = seed >>> 0;
    this.size = size;
    this.evm = new EvmWorld(this);
  }

  /** Growth steps applied so far; each step adds one block on every EVM chain. */
  get steps(): number {
    return this.stepCount;
  }

  advance(steps: number): void {
    if (!Number.isInteger(steps) || steps < 0) throw new Error(`advance: steps must be a non-negative integer, got ${steps}`);
    if (steps === 0) return;
    this.stepCount += steps;
    for (const part of this.parts.values()) part.advance?.(steps);
    for (const fn of this.listeners) fn(steps);
  }

  /** Called after every advance with the number of steps just added. */
  onAdvance(fn: (steps: number) => void): void {
    this.listeners.push(fn);
  }

  attach(name: string, part: WorldPart): void {
    if (name === 'evm' || this.parts.has(name)) throw new Error(`world part "${name}" already exists`);
    this.parts.set(name, part);
  }

  /** The part attached under `name` (typed by the caller, e.g. `world.part<PrimaryWorld>('primary')`). */
  part<T extends WorldPart>(name: string): T {
    const p = this.parts.get(name);
    if (!p) throw new Error(`world part "${name}" is not attached`);
    return p as T;
  }

  hasPart(name: string): boolean {
    return this.parts.has(name);
  }

  describe(): WorldDescription {
    const out: WorldDescription = { seed: this.seed, size: this.size, steps: this.stepCount, evm: this.evm.describe() };
    for (const [name, part] of this.parts) if (part.describe) out[name] = part.describe();
    return out;
  }
}
