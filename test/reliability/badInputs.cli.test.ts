import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32 } from '@scure/base';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/runCli.ts';

/**
 * Bad inputs to the real CLI (GitHub issue 7): each gives a non-zero exit, nothing on stdout, and
 * exactly ONE line on stderr (`glacier-etl: …` or commander's `error: …`) naming the problem.
 */

const dir = mkdtempSync(join(tmpdir(), 'glacier-badcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// No config file unless a case gives one; a stray GLACIER_* variable must not change the outcome.
const env = { GLACIER_CONFIG: '', GLACIER_BASE_URL: '', GLACIER_METRICS_URL: '', GLACIER_DATA_DIR: dir, TEMPORAL_ADDRESS: '' };

// Cases run concurrently, but at most two CLI processes at once: more only thrashes two cores.
let running = 0;
const waiting: (() => void)[] = [];
async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await runCli(args, { cwd: dir, env: { ...env, ...extraEnv }, timeoutMs: 90_000 });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function expectOneLineError(r: CliResult, problem: RegExp): void {
  expect(r.code, r.stderr).not.toBe(0);
  expect(r.code).not.toBeNull(); // exited, not killed
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^(glacier-etl: |error: )/);
  expect(lines[0]).toMatch(problem);
}

function configFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const validAddress = bech32.encode('avax', bech32.toWords(new Uint8Array(20).fill(7)));
// Same charset and length, last checksum character changed: passes the regex, fails the checksum.
const badChecksum = `${validAddress.slice(0, -1)}${validAddress.endsWith('q') ? 'p' : 'q'}`;

describe.concurrent('CLI arguments', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['unknown option', ['backfill', '--frobnicate'], /unknown option '--frobnicate'/],
    ['unknown stream', ['backfill', '--streams', 'evm.blocks,evm.nope'], /--streams.*unknown stream "evm\.nope"/],
    ['--max-pages 0', ['backfill', '--max-pages', '0'], /--max-pages.*positive integer.*"0"/],
    ['--max-pages abc', ['sync', '--max-pages', 'abc'], /--max-pages.*positive integer.*"abc"/],
    ['--activity-budget -5', ['backfill', '--activity-budget', '-5'], /--activity-budget.*whole number.*"-5"/],
    ['schedule create without --cron', ['schedule', 'create'], /required option '--cron <expr>'/],
    ['bad --cron', ['schedule', 'create', '--cron', 'x'], /--cron.*"x"/],
    ['bad --catchup-window', ['schedule', 'create', '--cron', '0 3 * * *', '--catchup-window', '5parsecs'], /--catchup-window.*"5parsecs"/],
    ['dev-server --port 70000', ['dev-server', '--port', '70000'], /--port.*1-65535.*"70000"/],
    ['simulator --size huge', ['simulator', '--size', 'huge'], /--size.*"huge"/],
    ['sql with no query', ['sql'], /sql: give a query or --file/],
    ['--config that does not exist', ['--config', '/does/not/exist.yaml', 'config', 'check'], /\/does\/not\/exist\.yaml: cannot read config file \(ENOENT\)/],
  ];
  for (const [name, args, problem] of cases) {
    it(name, { timeout: 150_000 }, async () => expectOneLineError(await cli(args), problem));
  }
});

describe.concurrent('config files (config check)', () => {
  const cases: [string, string, RegExp][] = [
    ['wrong type', 'api:\n  concurrency: "eight"\n', /api\.concurrency: .*expected number/],
    ['unknown key', 'api:\n  concurency: 4\n', /api: Unrecognized key: "concurency"/],
    ['bad bech32 address (charset)', 'networks:\n  - network: mainnet\n    addresses: [avax1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb]\n', /networks\[0\]\.addresses\[0\]: expected a bech32 address/],
    ['bad bech32 checksum', `networks:\n  - network: mainnet\n    addresses: [P-${badChecksum}]\n`, /networks\[0\]\.addresses\[0\]: bech32 checksum/],
    ['bad EVM address', 'evmChains:\n  - chainId: "43114"\n    addresses: ["0x1234"]\n', /evmChains\[0\]\.addresses\[0\]: expected a 0x-prefixed 20-byte hex address/],
    ['bad chain id', 'evmChains:\n  - chainId: "43114\'; DROP TABLE evm_blocks;--"\n', /evmChains\[0\]\.chainId: expected a numeric EVM chain id/],
    ['unknown network devnet', 'networks:\n  - network: devnet\n', /networks\[0\]\.network: .*"mainnet"/],
    ['bad stream name', 'streams: [evm.blocks, evm.nope]\n', /streams\[1\]: /],
    ['negative concurrency', 'api:\n  concurrency: -3\n', /api\.concurrency: .*>=1/],
    ['YAML with tab indentation', 'api:\n\tconcurrency: 4\n', /not valid YAML\/JSON: .*[Tt]ab/],
    ['YAML with an unclosed bracket', 'streams: [evm.blocks\n', /not valid YAML\/JSON: .*\]/],
  ];
  for (const [name, text, problem] of cases) {
    it(name, { timeout: 150_000 }, async () => {
      const file = configFile(`${name.replace(/\W+/g, '-')}.yaml`, text);
      expectOneLineError(await cli(['--config', file, 'config', 'check']), problem);
    });
  }

  it('a valid bech32 address (the checksum check accepts it)', { timeout: 150_000 }, async () => {
    const file = configFile('good-bech32.yaml', `networks:\n  - network: mainnet\n    addresses: [P-${validAddress}, ${validAddress}]\n`);
    const r = await cli(['--config', file, 'config', 'check']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).networks[0].addresses).toEqual([`P-${validAddress}`, validAddress]);
  });

  it('an empty file is fine: defaults', { timeout: 150_000 }, async () => {
    const file = configFile('empty.yaml', '');
    const r = await cli(['--config', file, 'config', 'check']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const resolved = JSON.parse(r.stdout);
    expect(resolved.api.baseUrl).toBe('https://glacier-api.avax.network');
    expect(resolved.streams.length).toBeGreaterThan(1);
  });

  it('GLACIER_BASE_URL=not-a-url is rejected naming api.baseUrl', { timeout: 150_000 }, async () => {
    const file = configFile('env-override.yaml', '');
    expectOneLineError(await cli(['--config', file, 'config', 'check'], { GLACIER_BASE_URL: 'not-a-url' }), /environment override: api\.baseUrl: /);
  });
});
