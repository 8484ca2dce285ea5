import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { parseInAction } from '../parsers.ts';
import { serveCommand, untilStopped } from '../serveCommand.ts';
import type { ApiKey, FaultKind, SimulatorModule, Tier, WorldSize, WorldSizeName } from '../simulatorLoader.ts';

// The simulator is loaded by the action only (it is absent from the worker image), so the options
// that name its vocabulary (sizes, tiers, fault kinds) are taken as text and parsed there with it.

/** `tiny|small|mainnet-like`, or explicit fields: `evmBlocks=10000000,evmAddresses=500`. */
export function parseSize(value: string, sizes: SimulatorModule['WORLD_SIZES']): WorldSizeName | Partial<WorldSize> {
  if (value in sizes) return value as WorldSizeName;
  const fields = Object.keys(sizes.tiny);
  const out: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [k, v] = part.split('=');
    if (!fields.includes(k) || v === undefined || !/^\d+$/.test(v.replace(/_/g, ''))) {
      throw new InvalidArgumentError(`expected ${Object.keys(sizes).join('|')} or field=number,... (fields: ${fields.join(', ')}), got "${value}"`);
    }
    out[k] = Number(v.replace(/_/g, ''));
  }
  return out as Partial<WorldSize>;
}

/** `key:tier,key2:tier2[:revoked]`. */
export function parseKeys(value: string, tiers: SimulatorModule['TIERS']): ApiKey[] {
  return value.split(',').map((entry) => {
    const [key, tier, flag] = entry.split(':');
    if (!key || !(tiers as readonly string[]).includes(tier) || (flag !== undefined && flag !== 'revoked')) {
      throw new InvalidArgumentError(`expected key:tier[:revoked] with tier one of ${tiers.join(', ')}, got "${entry}"`);
    }
    return { key, tier: tier as Tier, revoked: flag === 'revoked' };
  });
}

/** Repeatable `kind=probability`. */
export function parseFault(value: string, kinds: SimulatorModule['FAULT_KINDS'], previous: Partial<Record<FaultKind, number>> = {}): Partial<Record<FaultKind, number>> {
  const [kind, p] = value.split('=');
  const prob = Number(p);
  if (!(kinds as readonly string[]).includes(kind) || p === undefined || p === '' || !(prob >= 0 && prob <= 1)) {
    throw new InvalidArgumentError(`expected kind=probability (0..1) with kind one of ${kinds.join(', ')}, got "${value}"`);
  }
  return { ...previous, [kind]: prob };
}

export function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 0xffffffff) throw new InvalidArgumentError(`expected an integer 0..4294967295, got "${value}"`);
  return Number(value);
}

export function parseDriftStep(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`expected a world step (a non-negative integer), got "${value}"`);
  return Number(value);
}

export function parseGrowth(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number of steps per second, got "${value}"`);
  return n;
}

interface SimulatorCliOptions {
  port?: number;
  metricsPort?: number;
  host: string;
  seed: number;
  size: string;
  rateLimits?: boolean;
  keys?: string;
  fault?: string[];
  growth?: number;
  drift?: number;
  driftTypeChanges?: boolean;
}

/** Named in the help without loading the simulator; a test holds them equal to its own lists. */
export const SIZE_NAMES_HELP = 'tiny|small|mainnet-like';
export const FAULT_KINDS_HELP = 'http500, http502, http503, burst429, reset, slow, truncated, shortPage, expiredToken';

export function registerSimulatorCommand(program: Command): void {
  serveCommand(program, 'simulator', 'serve the offline Data API from a deterministic synthetic world', [
    ['--port', 'data API'],
    ['--metrics-port', 'holder-metrics'],
  ])
    .option('--host <host>', 'listen address', '127.0.0.1')
    .option('--seed <n>', 'world seed', parseSeed, 1)
    .option('--size <size>', `world size: ${SIZE_NAMES_HELP} or field=number,...`, 'small')
    .option('--rate-limits', 'enforce CU rate limits (default on)', true)
    .option('--no-rate-limits', 'do not enforce CU rate limits')
    .option('--keys <list>', 'API keys as key:tier[:revoked],...')
    .option('--fault <kind=prob>', `inject a fault (repeatable): ${FAULT_KINDS_HELP}`, (text: string, previous: string[] = []) => [...previous, text])
    .option('--growth <steps/s>', 'grow every chain by this many blocks per second', parseGrowth)
    .option('--drift <step>', 'from this world step on, the API drifts: new fields, enum values, a vanished field, type changes, a new chain (docs/drift.md)', parseDriftStep)
    .option('--no-drift-type-changes', 'drift without the type changes (which stop the partitions of one EVM chain)')
    .action(async (opts: SimulatorCliOptions, command: Command) => {
      const { loadSimulator } = await import('../simulatorLoader.ts');
      const { startSimulator, WORLD_SIZES, TIERS, FAULT_KINDS } = await loadSimulator();
      const size = parseInAction(command, 'size', opts.size, (text) => parseSize(text, WORLD_SIZES));
      const keys = opts.keys === undefined ? undefined : parseInAction(command, 'keys', opts.keys, (text) => parseKeys(text, TIERS));
      let faults: Partial<Record<FaultKind, number>> | undefined;
      for (const text of opts.fault ?? []) faults = parseInAction(command, 'fault', text, (t) => parseFault(t, FAULT_KINDS, faults));
      const sim = await startSimulator({
        seed: opts.seed,
        size,
        port: opts.port,
        metricsPort: opts.metricsPort,
        host: opts.host,
        keys,
        rateLimits: opts.rateLimits !== false,
        faults,
        growth: opts.growth ? { stepsPerSecond: opts.growth } : undefined,
        drift: opts.drift === undefined ? undefined : { fromStep: opts.drift, typeChanges: opts.driftTypeChanges !== false },
      });
      process.stdout.write(`simulator data API  ${sim.baseUrl}\nsimulator metrics   ${sim.metricsUrl}\n`);
      await untilStopped();
      await sim.close();
    });
}
