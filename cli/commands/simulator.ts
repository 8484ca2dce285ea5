import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { parsePort } from '../parsers.ts';
// The option parsers need only these constants; the simulator itself is imported by the action.
import { FAULT_KINDS, type FaultKind } from '../../tools/simulator/http/faults.ts';
import { TIERS, type ApiKey, type Tier } from '../../tools/simulator/http/auth.ts';
import { WORLD_SIZES, type WorldSize, type WorldSizeName } from '../../tools/simulator/world/size.ts';

/** `tiny|small|mainnet-like`, or explicit fields: `evmBlocks=10000000,evmAddresses=500`. */
export function parseSize(value: string): WorldSizeName | Partial<WorldSize> {
  if (value in WORLD_SIZES) return value as WorldSizeName;
  const fields = Object.keys(WORLD_SIZES.tiny);
  const out: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [k, v] = part.split('=');
    if (!fields.includes(k) || v === undefined || !/^\d+$/.test(v.replace(/_/g, ''))) {
      throw new InvalidArgumentError(`expected ${Object.keys(WORLD_SIZES).join('|')} or field=number,... (fields: ${fields.join(', ')}), got "${value}"`);
    }
    out[k] = Number(v.replace(/_/g, ''));
  }
  return out as Partial<WorldSize>;
}

/** `key:tier,key2:tier2[:revoked]`. */
export function parseKeys(value: string): ApiKey[] {
  return value.split(',').map((entry) => {
    const [key, tier, flag] = entry.split(':');
    if (!key || !(TIERS as readonly string[]).includes(tier) || (flag !== undefined && flag !== 'revoked')) {
      throw new InvalidArgumentError(`expected key:tier[:revoked] with tier one of ${TIERS.join(', ')}, got "${entry}"`);
    }
    return { key, tier: tier as Tier, revoked: flag === 'revoked' };
  });
}

/** Repeatable `kind=probability`. */
export function parseFault(value: string, previous: Partial<Record<FaultKind, number>> = {}): Partial<Record<FaultKind, number>> {
  const [kind, p] = value.split('=');
  const prob = Number(p);
  if (!(FAULT_KINDS as readonly string[]).includes(kind) || p === undefined || p === '' || !(prob >= 0 && prob <= 1)) {
    throw new InvalidArgumentError(`expected kind=probability (0..1) with kind one of ${FAULT_KINDS.join(', ')}, got "${value}"`);
  }
  return { ...previous, [kind]: prob };
}

export function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 0xffffffff) throw new InvalidArgumentError(`expected an integer 0..4294967295, got "${value}"`);
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
  size: WorldSizeName | Partial<WorldSize>;
  rateLimits?: boolean;
  keys?: ApiKey[];
  fault?: Partial<Record<FaultKind, number>>;
  growth?: number;
}

export function registerSimulatorCommand(program: Command): void {
  program
    .command('simulator')
    .description('serve the offline Data API from a deterministic synthetic world (Ctrl-C stops it)')
    .option('--port <port>', 'data API port (default: a free port)', parsePort)
    .option('--metrics-port <port>', 'holder-metrics port (default: a free port)', parsePort)
    .option('--host <host>', 'listen address', '127.0.0.1')
    .option('--seed <n>', 'world seed', parseSeed, 1)
    .option('--size <size>', `world size: ${Object.keys(WORLD_SIZES).join('|')} or field=number,...`, parseSize, 'small')
    .option('--rate-limits', 'enforce CU rate limits (default on)', true)
    .option('--no-rate-limits', 'do not enforce CU rate limits')
    .option('--keys <list>', 'API keys as key:tier[:revoked],...', parseKeys)
    .option('--fault <kind=prob>', `inject a fault (repeatable): ${FAULT_KINDS.join(', ')}`, parseFault)
    .option('--growth <steps/s>', 'grow every chain by this many blocks per second', parseGrowth)
    .action(async (opts: SimulatorCliOptions) => {
      const { startSimulator } = await import('../../tools/simulator/index.ts');
      const sim = await startSimulator({
        seed: opts.seed,
        size: opts.size,
        port: opts.port,
        metricsPort: opts.metricsPort,
        host: opts.host,
        keys: opts.keys,
        rateLimits: opts.rateLimits !== false,
        faults: opts.fault,
        growth: opts.growth ? { stepsPerSecond: opts.growth } : undefined,
      });
      process.stdout.write(`simulator data API  ${sim.baseUrl}\nsimulator metrics   ${sim.metricsUrl}\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.close();
    });
}
