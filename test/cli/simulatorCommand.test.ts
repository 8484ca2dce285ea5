import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { runCli } from '../helpers/runCli.ts';
import { cliArgv } from '../helpers/cliEntry.ts';
import { FAULT_KINDS_HELP, SIZE_NAMES_HELP, parseDriftStep, parseFault, parseGrowth, parseKeys, parseSeed, parseSize } from '../../cli/commands/simulator.ts';
import { parseDemoSize } from '../../cli/commands/demo.ts';
import { FAULT_KINDS, TIERS, WORLD_SIZES } from '../../tools/simulator/index.ts';

// The CLI's `simulator` command (the simulator's own tests are in tools/simulator/test/).
const size = (v: string) => parseSize(v, WORLD_SIZES);
const keys = (v: string) => parseKeys(v, TIERS);
const fault = (v: string, previous?: Parameters<typeof parseFault>[2]) => parseFault(v, FAULT_KINDS, previous);

describe('glacier-etl simulator', () => {
  it('rejects bad values with InvalidArgumentError messages', () => {
    for (const [parse, value] of [
      [size, 'huge'], [size, 'evmBlocks=ten'], [size, 'planets=3'], [keys, 'k1:platinum'], [keys, 'k1'],
      [fault, 'meteor=0.5'], [fault, 'http500=2'], [fault, 'http500'], [parseGrowth, '0'], [parseGrowth, 'fast'], [parseSeed, '-4'], [parseDriftStep, '-1'], [parseDriftStep, 'soon'],
      [(v: string) => parseDemoSize(v, WORLD_SIZES), 'huge'],
    ] as [(v: string) => unknown, string][]) {
      expect(() => parse(value), value).toThrow(InvalidArgumentError);
    }
    expect(parseDriftStep('100')).toBe(100);
    expect(size('evmBlocks=10_000_000,maxTxsPerBlock=3')).toEqual({ evmBlocks: 10_000_000, maxTxsPerBlock: 3 });
    expect(keys('a:free,b:pro:revoked')).toEqual([{ key: 'a', tier: 'free', revoked: false }, { key: 'b', tier: 'pro', revoked: true }]);
    expect(fault('reset=0.25', { http500: 0.1 })).toEqual({ http500: 0.1, reset: 0.25 });
  });

  it('its help names exactly the simulator\'s sizes and fault kinds (written out so --help needs no simulator)', () => {
    expect(SIZE_NAMES_HELP).toBe(Object.keys(WORLD_SIZES).join('|'));
    expect(FAULT_KINDS_HELP).toBe(FAULT_KINDS.join(', '));
  });

  it('a bad argument exits non-zero with one error line naming the option', async () => {
    const { code, stderr, stdout } = await runCli(['simulator', '--fault', 'meteor=0.5']);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toMatch(/--fault.*meteor=0\.5/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a bad --keys or second --fault fails the same way (they are parsed once the simulator is loaded)', async () => {
    for (const [args, problem] of [
      [['simulator', '--keys', 'k1:platinum'], /^error: option '--keys <list>' argument 'k1:platinum' is invalid\. .*tier one of none, free/],
      [['simulator', '--fault', 'reset=0.1', '--fault', 'http500=7'], /^error: option '--fault <kind=prob>' argument 'http500=7' is invalid/],
      [['demo', '--size', 'huge'], /^error: option '--size <size>' argument 'huge' is invalid\. expected one of tiny, small, mainnet-like/],
    ] as [string[], RegExp][]) {
      const { code, stderr, stdout } = await runCli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(problem)]);
    }
  });

  it('serves the data API with rate limits on and keys, prints both URLs, stops on SIGINT', async () => {
    const child = spawn(process.execPath, cliArgv(['simulator', '--size', 'tiny', '--seed', '4', '--keys', 'k1:free,k2:pro:revoked', '--fault', 'slow=0', '--growth', '50']), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const urls = await new Promise<string[]>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const found = out.match(/http:\/\/127\.0\.0\.1:\d+/g);
        if (found && found.length === 2) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    try {
      const [base, metrics] = urls;
      const res = await fetch(`${base}/v1/chains/43114/blocks?pageSize=1`, { headers: { 'x-service-api-key': 'k1' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('8000;w=60');
      const first = Number(((await res.json()) as { blocks: { blockNumber: string }[] }).blocks[0].blockNumber);
      expect((await fetch(`${base}/v1/chains/43114/blocks`, { headers: { 'x-service-api-key': 'k2' } })).status).toBe(403);
      const holders = await fetch(`${metrics}/v2/chains/43114/contracts/${'0x' + '0'.repeat(40)}/balances?threshold=1`);
      expect(holders.status).toBe(200);
      // --growth adds blocks over time.
      await new Promise((r) => setTimeout(r, 1000));
      const later = (await (await fetch(`${base}/v1/chains/43114/blocks?pageSize=1`)).json()) as { blocks: { blockNumber: string }[] };
      expect(Number(later.blocks[0].blockNumber)).toBeGreaterThan(first);
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(0);
  });
});
