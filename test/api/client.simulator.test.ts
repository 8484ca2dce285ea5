import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataApiClient, endpoints, InvalidPageTokenError, NonRetryableApiError, QuotaExhaustedError } from '../../activities/api/index.ts';
import { startSimulator, FAULT_KINDS, type Simulator } from '../../tools/simulator/index.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';
import { ManualClock } from '../helpers/manualClock.ts';
import { truthOf, walkAll, type AnyList } from './helpers/walk.ts';

const KEYS = ['sim-key-one-7f3a9c', 'sim-key-two-51be02', 'sim-key-three-c0ffee'];
const REVOKED = 'sim-key-revoked-9d1e44';

describe('Data API client against the simulator', () => {
  let sim: Simulator;
  let world: { addresses: string[]; contracts: { chainId: string; address: string; ercType: string }[] };
  let pn: { addresses: string[]; nodeIds: string[] };

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, size: 'tiny', keys: [...KEYS.map((key) => ({ key, tier: 'free' as const })), { key: REVOKED, tier: 'free', revoked: true }] });
    const described = sim.world.describe() as unknown as { evm: typeof world; primary: { mainnet: { addresses: string[]; nodeIds?: string[] } } };
    world = described.evm;
    pn = { addresses: described.primary.mainnet.addresses, nodeIds: described.primary.mainnet.nodeIds ?? [] };
  });
  afterAll(() => sim?.close());

  /** The address with the most items in a list: the world's details may change, the test should not. */
  async function busiest(endpoint: AnyList, params: (address: string) => Record<string, unknown>): Promise<string> {
    const counts = await Promise.all(world.addresses.map(async (a) => (await truthOf(sim, endpoint, params(a))).length));
    return world.addresses[counts.indexOf(Math.max(...counts))];
  }

  const lists = async () => {
    const erc20 = world.contracts.find((c) => c.chainId === '43114' && c.ercType === 'ERC-20')!.address;
    const txAddress = await busiest(endpoints.evm.listNativeTransactions, (address) => ({ chainId: '43114', address }));
    const balanceAddress = await busiest(endpoints.evm.listErc20Balances, (address) => ({ chainId: '43114', address }));
    return [
      { name: 'blocks', endpoint: endpoints.evm.listBlocks, params: { chainId: '99871', pageSize: 7 } },
      { name: 'latest transactions', endpoint: endpoints.evm.listLatestTransactions, params: { chainId: '779672', pageSize: 25 } },
      { name: 'address transactions', endpoint: endpoints.evm.listNativeTransactions, params: { chainId: '43114', address: txAddress, pageSize: 20 } },
      { name: 'token transfers', endpoint: endpoints.evm.listTransfers, params: { chainId: '43114', address: erc20, pageSize: 40 } },
      { name: 'erc20 balances', endpoint: endpoints.evm.listErc20Balances, params: { chainId: '43114', address: balanceAddress, pageSize: 1 } },
      { name: 'holders', endpoint: endpoints.metrics.listHolders, params: { chainId: '43114', address: erc20, threshold: '0', pageSize: 3 } },
      // Primary network: chain-wide transactions have short pages (the shortPage fault and the UTXO threshold). Pages of 10,
      // not 40: the fault counts only on a page that gets through the other faults, and at 40 a fresh-clone
      // run saw none (session 25); four times the pages make that far less likely (the test takes 27-35 s, not 15).
      { name: 'p-chain transactions', endpoint: endpoints.primaryNetwork.listTransactions, params: { network: 'mainnet', blockchainId: 'p-chain', pageSize: 10 } },
      { name: 'x-chain transactions', endpoint: endpoints.primaryNetwork.listTransactions, params: { network: 'mainnet', blockchainId: 'x-chain', pageSize: 10 } },
      { name: 'utxos (POST v2)', endpoint: endpoints.primaryNetwork.listUtxosV2, params: { network: 'mainnet', blockchainId: 'p-chain', addresses: pn.addresses.slice(0, 4), includeSpent: true, pageSize: 30 } },
      { name: 'utxos (GET)', endpoint: endpoints.primaryNetwork.listUtxos, params: { network: 'mainnet', blockchainId: 'x-chain', addresses: pn.addresses.slice(0, 4), pageSize: 30 } },
      { name: 'validators', endpoint: endpoints.primaryNetwork.listValidators, params: { network: 'mainnet', pageSize: 6 } },
      { name: 'historical rewards', endpoint: endpoints.primaryNetwork.listHistoricalRewards, params: { network: 'mainnet', addresses: pn.addresses, pageSize: 5 } },
      { name: 'vertices', endpoint: endpoints.primaryNetwork.listVertices, params: { network: 'mainnet', blockchainId: 'x-chain', pageSize: 25 } },
    ] as const;
  };

  it('with every fault kind at 20%, full walks return exactly the ground truth, and no key reaches the logs', async () => {
    const { logger, lines } = capturedLogger('debug');
    sim.setFaults(Object.fromEntries(FAULT_KINDS.map((k) => [k, 0.2])));
    sim.resetStats();
    const client = createDataApiClient({
      baseUrl: sim.baseUrl,
      metricsUrl: sim.metricsUrl,
      apiKeys: [REVOKED, ...KEYS],
      concurrency: 6,
      requestTimeoutMs: 1000, // shorter than the slowest injected delay: timeouts happen too
      maxRetries: 50, // about 4 in 5 requests fail at this fault rate
      pageTokenRetries: 6,
      retry: { baseDelayMs: 10, maxDelayMs: 200 },
      logger,
      shareRateLimiter: false,
      // The simulator enforces no quota in this test; the client's own tier budget would only slow it.
      rateLimitOverride: { perWindow: 1e9 },
    });
    try {
      const results = await Promise.all((await lists()).map(async (l) => ({ ...l, walked: await walkAll(client, l.endpoint, l.params, { partition: l.name }) })));
      for (const { name, endpoint, params, walked } of results) {
        const truth = await truthOf(sim, endpoint, params);
        expect(truth.length, name).toBeGreaterThan(0);
        expect(walked.items, name).toEqual(truth);
      }
      const injected = sim.stats().faultsInjected;
      for (const kind of FAULT_KINDS) expect(injected[kind], kind).toBeGreaterThan(0);
      const stats = client.stats();
      expect(stats.retries).toBeGreaterThan(20);
      expect(stats.rateLimited).toBeGreaterThan(0);
    } finally {
      sim.setFaults({});
    }
    const log = lines();
    expect(log).toContain('api request retried');
    for (const key of [...KEYS, REVOKED]) expect(log).not.toContain(key);
  });

  it('continues a walk from a saved token exactly where the first one stopped', async () => {
    const client = createDataApiClient({ baseUrl: sim.baseUrl, apiKeys: [KEYS[0]], shareRateLimiter: false });
    const params = { chainId: '43114', pageSize: 13 };
    const first = [];
    let saved: string | undefined;
    for await (const page of client.pages(endpoints.evm.listBlocks, params, { maxPages: 4 })) {
      first.push(...page.items);
      saved = page.nextPageToken;
    }
    expect(first).toHaveLength(52);
    const rest = [];
    for await (const page of client.pages(endpoints.evm.listBlocks, params, { startToken: saved })) rest.push(...page.items);
    const full = (await walkAll(client, endpoints.evm.listBlocks, params)).items;
    expect([...first, ...rest]).toEqual(full);
    expect(full).toEqual(await truthOf(sim, endpoints.evm.listBlocks, params));
  });

  it('aggregates signatures (POST) and reads balances, validated', async () => {
    const client = createDataApiClient({ baseUrl: sim.baseUrl, apiKeys: [KEYS[0]], shareRateLimiter: false });
    const balances = await client.api.primaryNetwork.getBalances({ network: 'mainnet', blockchainId: 'p-chain', addresses: pn.addresses.slice(0, 2) });
    expect(Array.isArray(balances.balances.unlockedUnstaked)).toBe(true);
    const error = await client.api.signatureAggregation.aggregateSignatures({ network: 'mainnet' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'non-retryable', status: 400, serverMessage: expect.stringMatching(/message or justification/) });
  });

  it('surfaces a non-retryable 400 with the server message', async () => {
    const client = createDataApiClient({ baseUrl: sim.baseUrl, apiKeys: [KEYS[0]], shareRateLimiter: false });
    const error = await client.api.evm.listBlocks({ chainId: '43114', pageSize: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableApiError);
    expect((error as NonRetryableApiError).status).toBe(400);
    expect((error as NonRetryableApiError).serverMessage).toMatch(/pageSize/);
    expect((error as Error).message).toContain((error as NonRetryableApiError).serverMessage);
  });

  it('surfaces InvalidPageTokenError when a saved token has expired', async () => {
    let now = Date.now();
    const expiring = await startSimulator({ seed: 7, size: 'tiny', tokenTtlMs: 60_000, clock: () => now });
    try {
      const client = createDataApiClient({ baseUrl: expiring.baseUrl, shareRateLimiter: false, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
      const walk = client.pages(endpoints.evm.listBlocks, { chainId: '43114', pageSize: 10 });
      const first = await walk.next();
      expect(first.value?.nextPageToken).toBeTruthy();
      now += 24 * 3600_000; // a day later
      const error = await walk.next().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidPageTokenError);
      expect(error).toMatchObject({ kind: 'invalid-page-token', status: 400, serverMessage: expect.stringMatching(/expired/i) });
    } finally {
      await expiring.close();
    }
  });

  it('surfaces QuotaExhaustedError with the reset time when the daily budget is spent', async () => {
    const dayMs = 3_600_000;
    // The simulator's day stands still 30 minutes before its end (the test's clock), so no reset can
    // fall inside the walk whatever the time of day or the machine's speed.
    const clock = new ManualClock(Date.UTC(2026, 10, 1, 12, 30));
    const limited = await startSimulator({
      seed: 7,
      size: 'tiny',
      keys: [{ key: KEYS[0], tier: 'free' }],
      rateLimits: { budgets: { free: { perMinute: 100_000, perDay: 200 } }, dayMs },
      clock: clock.now,
    });
    try {
      // Waits up to 5 s happen inside; longer ones throw.
      const client = createDataApiClient({ baseUrl: limited.baseUrl, apiKeys: [KEYS[0]], shareRateLimiter: false, maxQuotaWaitMs: 5000 });
      const error = await walkAll(client, endpoints.evm.listBlocks, { chainId: '43114', pageSize: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaExhaustedError);
      // The client's reset time is its own clock plus the 429's retry-after (the 30 minutes left).
      const resetAt = (error as QuotaExhaustedError).resetAt.getTime();
      expect(Math.abs(resetAt - (Date.now() + 30 * 60_000))).toBeLessThan(2000);
      // Each day's 200 CU buys 20 blocks requests of 10 CU; one 429 told us, nothing was sent after it.
      expect(limited.stats().byStatus[200] % 20).toBe(0);
      expect(limited.stats().byStatus[429]).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
