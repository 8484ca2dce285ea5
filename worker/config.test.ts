import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig, validateConfig } from './config.ts';

function errorOf(raw: unknown): string {
  try {
    validateConfig(raw, 'f.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('pipeline config', () => {
  it('fills defaults for an empty file', () => {
    const config = validateConfig({});
    expect(config.api.tier).toBe('free');
    expect(config.streams.length).toBeGreaterThan(10);
  });

  it('names the field of a bad value', () => {
    expect(errorOf({ networks: [{ network: 'mainnet', addresses: ['avax1nope'] }] })).toMatch(/^f\.yaml: networks\[0\]\.addresses\[0\]: expected a bech32 address/);
    expect(errorOf({ networks: [{ network: 'devnet' }] })).toMatch(/networks\[0\]\.network/);
    expect(errorOf({ evmChains: [{ chainId: '43114', contracts: ['0x12'] }] })).toMatch(/evmChains\[0\]\.contracts\[0\]/);
    expect(errorOf({ streams: ['evm.block'] })).toMatch(/streams\[0\]/);
    expect(errorOf({ apiKey: 'x' })).toMatch(/apiKey/);
    expect(errorOf({ api: { tier: 'platinum' } })).toMatch(/api\.tier/);
  });

  it('page size: the endpoint\'s largest by default, lowered per stream or for all, never above the endpoint', async () => {
    const { pageSizeFor } = await import('../activities/streams/pageSize.ts');
    const { STREAMS } = await import('../activities/streams/catalog.ts');
    const defaults = validateConfig({});
    expect(pageSizeFor(STREAMS['pn.utxos'], defaults)).toBe(1024);
    expect(pageSizeFor(STREAMS['evm.erc20_balances'], defaults)).toBe(500);
    expect(pageSizeFor(STREAMS['metrics.holders'], defaults)).toBe(5000);
    expect(pageSizeFor(STREAMS['evm.blocks'], defaults)).toBe(100);
    const lowered = validateConfig({ api: { pageSize: { 'pn.utxos': 200 } } });
    expect(pageSizeFor(STREAMS['pn.utxos'], lowered)).toBe(200);
    expect(pageSizeFor(STREAMS['metrics.holders'], lowered)).toBe(5000);
    expect(pageSizeFor(STREAMS['metrics.holders'], validateConfig({ api: { pageSize: 250 } }))).toBe(250);
    expect(pageSizeFor(STREAMS['evm.blocks'], validateConfig({ api: { pageSize: 250 } }))).toBe(100);
    expect(errorOf({ api: { pageSize: { 'pn.utxos': 2000 } } })).toBe('f.yaml: api.pageSize.pn.utxos: 2000 is above the largest page its endpoint allows (1024)');
    expect(errorOf({ api: { pageSize: { 'evm.blocks': 0 } } })).toMatch(/^f\.yaml: api\.pageSize/);
    expect(errorOf({ api: { pageSize: 6000 } })).toMatch(/^f\.yaml: api\.pageSize/);
  });

  it('budgets: a plan outside the tier table, and one entry per key for keys of different tiers', async () => {
    const { keyBudgets } = await import('../activities/api/quotaBudget.ts');
    const plan = validateConfig({ api: { tier: 'free', plan: { perMinute: 12_000, perDay: 5_000_000 } } });
    expect(keyBudgets(2, plan.api)).toEqual([{ perMinute: 12_000, perDay: 5_000_000 }, { perMinute: 12_000, perDay: 5_000_000 }]);
    const mixed = validateConfig({ api: { tier: 'free', keys: [{ tier: 'pro' }, { perMinute: 9_000, perDay: 3_000_000 }] } });
    expect(keyBudgets(2, mixed.api)).toEqual([{ perMinute: 20_000, perDay: 25_000_000 }, { perMinute: 9_000, perDay: 3_000_000 }]);
    expect(resolveConfig(mixed, { GLACIER_API_KEY: 'k1,k2' }).apiKeyCount).toBe(2);
    expect(() => resolveConfig(mixed, { GLACIER_API_KEY: 'k1' })).toThrow(/^api\.keys: 2 budget entries, but GLACIER_API_KEY holds 1 keys/);
    expect(errorOf({ api: { plan: { perMinute: -1, perDay: 10 } } })).toMatch(/^f\.yaml: api\.plan\.perMinute/);
    expect(errorOf({ api: { keys: [{ tier: 'gold' }] } })).toMatch(/^f\.yaml: api\.keys\[0\]/);
  });

  it('validates environment overrides with the same rules', () => {
    const config = validateConfig({});
    expect(() => resolveConfig(config, { GLACIER_BASE_URL: 'not a url' })).toThrow(/api\.baseUrl/);
    const resolved = resolveConfig(config, { GLACIER_DATA_DIR: '/tmp/x', TEMPORAL_ADDRESS: 'localhost:7233', GLACIER_API_KEY: 'a,b' });
    expect(resolved.dataDir).toBe('/tmp/x');
    expect(resolved.temporalAddress).toBe('localhost:7233');
    expect(resolved.apiKeyCount).toBe(2);
  });
});
