import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataApiClient, endpoints, InvalidPageTokenError, NonRetryableApiError, ResponseValidationError } from '../../activities/api/index.ts';
import { capturedLogger } from '../helpers/silentLogger.ts';
import { blocksPage, json, startScriptedServer } from './helpers/scriptedServer.ts';

const KEY_A = 'sk-live-AAAA-1111-secret';
const KEY_B = 'sk-live-BBBB-2222-secret';
const fast = { retry: { baseDelayMs: 5, maxDelayMs: 20 }, shareRateLimiter: false } as const;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: Parameters<typeof startScriptedServer>[0]) {
  const server = await startScriptedServer(handler);
  close = server.close;
  return server;
}

describe('Data API client over HTTP (scripted server)', () => {
  it('surfaces a 400 with the server message (string[] joined), without retrying', async () => {
    const server = await serve((_req, res) => json(res, 400, { message: ['Invalid address format'], statusCode: 400, error: 'Bad Request' }));
    const client = createDataApiClient({ baseUrl: server.url, apiKeys: [KEY_A], ...fast });
    const error = await client.api.primaryNetwork.getBalances({ network: 'mainnet', blockchainId: 'p-chain', addresses: 'bad' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableApiError);
    expect(error).toMatchObject({ kind: 'non-retryable', status: 400, serverMessage: 'Invalid address format' });
    expect(server.received).toHaveLength(1);
  });

  it('retries 5xx, connection resets, truncated bodies and timeouts, then returns the page', async () => {
    const server = await serve((_req, res, i): void => {
      if (i === 0) return json(res, 500, { message: 'boom', statusCode: 500, error: 'Internal Server Error' });
      if (i === 1) return json(res, 503, { message: 'busy' });
      if (i === 2) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
        res.write('{"blocks":[', () => res.destroy());
        return;
      }
      if (i === 3) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"blocks":[{"blockHash":"0x1"');
        return;
      }
      if (i === 4) return void setTimeout(() => json(res, 200, blocksPage(1)), 400);
      json(res, 200, blocksPage(2));
    });
    const client = createDataApiClient({ baseUrl: server.url, apiKeys: [KEY_A], requestTimeoutMs: 150, ...fast });
    const page = await client.api.evm.listBlocks({ chainId: '43114' });
    expect(page.blocks).toHaveLength(2);
    expect(server.received).toHaveLength(6);
    expect(client.stats()).toMatchObject({ requests: 6, retries: 5, responses: 1 });
  });

  it('gives up after maxRetries with a retryable error carrying the attempt count', async () => {
    const server = await serve((_req, res) => json(res, 502, { message: 'bad gateway' }));
    const client = createDataApiClient({ baseUrl: server.url, maxRetries: 2, ...fast });
    await expect(client.api.evm.listBlocks({ chainId: '1' })).rejects.toMatchObject({ kind: 'retryable', status: 502, attempts: 3 });
    expect(server.received).toHaveLength(3);
  });

  it('classifies a wrong-shaped 200 as ResponseValidationError naming the path, not retried', async () => {
    const server = await serve((_req, res) => json(res, 200, { blocks: { not: 'an array' } }));
    const client = createDataApiClient({ baseUrl: server.url, ...fast });
    const error = await client.api.evm.listBlocks({ chainId: '1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ path: 'blocks' });
    expect(server.received).toHaveLength(1);
  });

  it('confirms a page-token rejection a few times, then surfaces InvalidPageTokenError', async () => {
    const server = await serve((req, res) => (req.url.includes('pageToken') ? json(res, 400, { message: 'Page token expired', statusCode: 400 }) : json(res, 200, blocksPage(1, 'tok'))));
    const client = createDataApiClient({ baseUrl: server.url, pageTokenRetries: 2, ...fast });
    const pages = client.pages(endpoints.evm.listBlocks, { chainId: '1' });
    expect((await pages.next()).value?.items).toHaveLength(1);
    await expect(pages.next()).rejects.toBeInstanceOf(InvalidPageTokenError);
    expect(server.received).toHaveLength(4);
  });

  it('after a 429 sends nothing on that key until retry-after has passed', async () => {
    const server = await serve((_req, res, i) => (i === 0 ? json(res, 429, { message: 'Too many requests' }, { 'retry-after': '1' }) : json(res, 200, blocksPage(1))));
    const client = createDataApiClient({ baseUrl: server.url, apiKeys: [KEY_A], concurrency: 4, ...fast });
    const first = client.api.evm.listBlocks({ chainId: '1' });
    // Wait until the client has taken the 429 (a fixed sleep was a guess on a busy machine).
    while (client.stats().rateLimited === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, ...Array.from({ length: 3 }, () => client.api.evm.listBlocks({ chainId: '1' }))]);
    const [rejectedAt, ...later] = server.received.map((r) => r.at);
    expect(later).toHaveLength(4);
    for (const at of later) expect(at - rejectedAt).toBeGreaterThanOrEqual(950);
    expect(client.stats().rateLimited).toBe(1);
  });

  it('reuses keep-alive connections', async () => {
    const server = await serve((_req, res) => json(res, 200, blocksPage(1)));
    const client = createDataApiClient({ baseUrl: server.url, ...fast });
    for (let i = 0; i < 20; i++) await client.api.evm.listBlocks({ chainId: '1' });
    expect(server.received).toHaveLength(20);
    // undici may open a second socket while the first is being returned to its pool; never one per request.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('caps requests in flight at the configured concurrency', async () => {
    const server = await serve((_req, res) => void setTimeout(() => json(res, 200, blocksPage(1)), 30));
    const client = createDataApiClient({ baseUrl: server.url, concurrency: 3, ...fast });
    await Promise.all(Array.from({ length: 12 }, () => client.api.evm.listBlocks({ chainId: '1' })));
    expect(server.maxInFlight()).toBeLessThanOrEqual(3);
    expect(server.maxInFlight()).toBeGreaterThan(1);
  });

  it('sends POST bodies as JSON, the key only as a header, and never to the metrics service', async () => {
    const server = await serve((req, res) => {
      if (req.url.startsWith('/v1/signatureAggregator')) return json(res, 200, { signedMessage: '0xabc' });
      if (req.url.startsWith('/v2/')) return json(res, 200, { addresses: [{ address: '0x1', sortKey: 1 }] });
      json(res, 200, { utxos: [{ utxoId: 'u1' }] });
    });
    const client = createDataApiClient({ baseUrl: server.url, metricsUrl: server.url, apiKeys: [KEY_A], ...fast });
    await client.api.signatureAggregation.aggregateSignatures({ network: 'fuji', message: '0x01', quorumPercentage: 67 });
    await client.api.primaryNetwork.listUtxosV2({ network: 'mainnet', blockchainId: 'p-chain', addresses: ['avax1a', 'avax1b'], pageSize: 1024, includeSpent: true });
    await client.api.metrics.listHolders({ chainId: '43114', address: '0xc', threshold: '5' });
    const [sig, utxos, holders] = server.received;
    expect(sig).toMatchObject({ method: 'POST', url: '/v1/signatureAggregator/fuji/aggregateSignatures' });
    expect(JSON.parse(sig.body)).toEqual({ message: '0x01', quorumPercentage: 67 });
    expect(sig.headers['content-type']).toBe('application/json');
    expect(utxos.url).toBe('/v1/networks/mainnet/blockchains/p-chain/utxos?pageSize=1024&includeSpent=true');
    expect(JSON.parse(utxos.body)).toEqual({ addresses: 'avax1a,avax1b' });
    expect(utxos.headers['x-service-api-key']).toBe(KEY_A);
    expect(holders.url).toBe('/v2/chains/43114/contracts/0xc/balances?threshold=5');
    expect(holders.headers['x-service-api-key']).toBeUndefined();
  });

  it('drops a rejected key, continues with the next, and never lets a key reach logs or errors', async () => {
    const server = await serve((req, res) => {
      const key = String(req.headers['x-service-api-key']);
      // A careless server echoing the key back in its message.
      if (key === KEY_A) return json(res, 401, { message: `Invalid API key ${key}`, statusCode: 401 });
      if (req.url.includes('fail')) return json(res, 404, { message: `No such chain for key ${key}` });
      json(res, 200, blocksPage(1));
    });
    const { logger, lines } = capturedLogger('debug');
    const client = createDataApiClient({ baseUrl: server.url, apiKeys: [KEY_A, KEY_B], logger, ...fast });
    for (let i = 0; i < 3; i++) await client.api.evm.listBlocks({ chainId: '1' });
    const error = await client.api.evm.listBlocks({ chainId: 'fail' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableApiError);
    expect(server.received.filter((r) => r.headers['x-service-api-key'] === KEY_A)).toHaveLength(1);
    const everything = [lines(), String(error), (error as Error).stack, JSON.stringify(error), JSON.stringify(client.stats())].join('\n');
    expect(everything).toContain('[redacted]');
    for (const secret of [KEY_A, KEY_B, 'AAAA-1111', 'BBBB-2222']) expect(everything).not.toContain(secret);
    expect(lines()).toContain('api request');
  });

  it('fails with the server message when every key is rejected', async () => {
    const server = await serve((_req, res) => json(res, 403, { message: 'API key revoked', statusCode: 403 }));
    const client = createDataApiClient({ baseUrl: server.url, apiKeys: [KEY_A, KEY_B], ...fast });
    await expect(client.api.evm.listBlocks({ chainId: '1' })).rejects.toMatchObject({ kind: 'non-retryable', status: 403, serverMessage: 'API key revoked' });
    expect(server.received).toHaveLength(2);
  });

  it('asks for compressed bodies and reads gzip and brotli, follows a redirect, and retries a body that does not decode', async () => {
    const page = JSON.stringify(blocksPage(2));
    const server = await serve((req, res, i): void => {
      if (i === 0) return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(page));
      if (i === 1) return void res.writeHead(302, { location: `${req.url}&moved=1` }).end();
      if (i === 2) return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(page));
      if (i === 3) return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip');
      json(res, 200, blocksPage(1));
    });
    const client = createDataApiClient({ baseUrl: server.url, ...fast });
    expect((await client.api.evm.listBlocks({ chainId: '1' })).blocks).toHaveLength(2);
    expect((await client.api.evm.listBlocks({ chainId: '1' })).blocks).toHaveLength(2);
    expect((await client.api.evm.listBlocks({ chainId: '1' })).blocks).toHaveLength(1);
    expect(server.received[0].headers['accept-encoding']).toMatch(/gzip/);
    expect(server.received[2].url).toMatch(/moved=1/);
    expect(server.received).toHaveLength(5);
    expect(client.stats()).toMatchObject({ requests: 4, retries: 1 });
  });
});
