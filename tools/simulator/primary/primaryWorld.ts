import type { WorldPart } from '../world/world.ts';
import { stepSeconds, WORLD_TIP_TIME } from '../world/size.ts';
import type { WorldSize } from '../world/size.ts';
import type { NetworkName } from './chains.ts';
import { NetworkGenerator } from './generator.ts';

/**
 * The primary-network part of the world: one generated history per network, built on first use
 * (fuji is smaller, like the real test network) and grown with the world's steps.
 */
export class PrimaryWorld implements WorldPart {
  private readonly networks = new Map<NetworkName, NetworkGenerator>();
  private grownSteps = 0;

  constructor(
    readonly seed: number,
    readonly size: Pick<WorldSize, 'pnTxsPerChain' | 'pnAddresses' | 'validators' | 'stepsPerDay'>,
  ) {}

  network(name: NetworkName): NetworkGenerator {
    let gen = this.networks.get(name);
    if (!gen) {
      const scale = name === 'mainnet' ? 1 : 0.5;
      // About 1.2 transactions per chain are made per step (see NetworkGenerator.runStep).
      const steps = Math.max(40, Math.round((this.size.pnTxsPerChain * scale) / 1.2));
      const seconds = stepSeconds(this.size);
      gen = new NetworkGenerator(name, this.seed, {
        addresses: Math.max(4, Math.round(this.size.pnAddresses * scale)),
        steps,
        nodes: Math.max(8, Math.round(this.size.validators * scale)),
        // Day-scale clocks: the history ends where the EVM chains' does, one step as long as theirs.
        ...(seconds === undefined ? {} : { clock: { stepSeconds: seconds, endTime: WORLD_TIP_TIME } }),
      });
      gen.advance(this.grownSteps);
      this.networks.set(name, gen);
    }
    return gen;
  }

  advance(steps: number): void {
    this.grownSteps += steps;
    for (const gen of this.networks.values()) gen.advance(steps);
  }

  describe(): Record<NetworkName, unknown> {
    return { mainnet: this.network('mainnet').describe(), fuji: this.network('fuji').describe() };
  }
}
