import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { runCli } from '../../../test/helpers/runCli.ts';
import { cliArgv } from '../../../test/helpers/cliEntry.ts';
import { parseFault, parseGrowth, parseKeys, parseSeed, parseSize } from '../../../cli/commands/simulator.ts';

describe('glacier-etl simulator', () => {
  it('rejects bad values with InvalidArgumentError messages', () => {
    for (const [parse, value] of [
      [parseSize, 'huge'], [parseSize, 'evmBlocks=ten'], [parseSize, 'planets=3'], [parseKeys, 'k1:platinum'], [parseKeys, 'k1'],
      [parseFault, 'meteor=0.5'], [parseFault, 'http500=2'], [parseFault, 'http500'], [parseGrowth, '0'], [parseGrowth, 'fast'], [parseSeed, '-4'],
    ] as [(v: string) => unknown, string][]) {
      expect(() => parse(value), value).toThrow(InvalidArgumentError);
    }
    expect(parseSize('evmBlocks=10_000_000,maxTxsPerBlock=3')).toEqual({ evmBlocks: 10_000_000, maxTxsPerBlock: 3 });
    expect(parseKeys('a:free,b:pro:revoked')).toEqual([{ key: 'a', tier: 'free', revoked: false }, { key: 'b', tier: 'pro', revoked: true }]);
    expect(parseFault('reset=0.25', { http500: 0.1 })).toEqual({ http500: 0.1, reset: 0.25 });
  });

  it('a bad argument exits non-zero with one error line naming the option', async () => {
    const { code, stderr, stdout } = await runCli(['simulator', '--fault', 'meteor=0.5']);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toMatch(/--fault.*meteor=0\.5/);
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
