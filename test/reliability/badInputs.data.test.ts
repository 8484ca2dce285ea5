import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../helpers/files.ts';
import { createDataApiClient } from '../../activities/api/index.ts';
import { PaginationLoopError, ResponseValidationError, RetryableApiError } from '../../activities/api/errors.ts';
import { partitionId } from '../../activities/streams/partitionIds.ts';
import { createSyncCore, type SyncCore } from '../../activities/sync/index.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/index.ts';
import { exportLake } from '../../activities/lake/export.ts';
import { lakeOf } from '../../worker/paths.ts';
import { allTables } from '../../activities/streams/catalog.ts';
import { ConfigError, resolveConfig, validateConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';

/**
 * Bad data from the server (GitHub issue 7, bad inputs): a tiny node:http server of our own serves
 * scripted responses to the real client + sync core + DuckDB. Each case either fails with a
 * classified error and commits nothing, or stores the data exactly.
 */

type Reply = { status?: number; body: string } | ((req: IncomingMessage, res: ServerResponse) => void);
type Script = (url: URL, n: number) => Reply;

let server: Server;
let baseUrl = '';
let script: Script = () => ({ status: 404, body: '{"message":"no script"}' });
let requests: URL[] = [];
const dirs: string[] = [];
const open: Warehouse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url);
    const reply = script(url, requests.length);
    if (typeof reply === 'function') return reply(req, res);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
    res.end(reply.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  while (open.length) await open.pop()!.close();
  requests = [];
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Rig {
  dir: string;
  warehouse: Warehouse;
  core: SyncCore;
  partition: PartitionSpec;
}

async function rig(raw: Record<string, unknown> = { streams: ['evm.blocks'], evmChains: [{ chainId: '43114' }] }): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-bad-'));
  dirs.push(dir);
  const config = resolveConfig(validateConfig({ dataDir: dir, ...raw, api: { baseUrl, metricsUrl: baseUrl, pageSize: 4, tier: 'pro' } }), {});
  const logger = createLogger({ level: 'silent' });
  const client = createDataApiClient({
    baseUrl,
    tier: 'pro',
    concurrency: 2,
    logger,
    maxRetries: 2,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    pageTokenRetries: 1,
    shareRateLimiter: false,
    rateLimitOverride: { perWindow: 1e9, perDay: 1e12, metrics: { perWindow: 1e9, perDay: 1e12 } },
  });
  const warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
  open.push(warehouse);
  const core = createSyncCore({ client, warehouse, config, logger });
  const [partition] = await core.planPartitions({});
  return { dir, warehouse, core, partition };
}

const block = (n: number, extra: Record<string, unknown> = {}) => ({
  blockNumber: String(n),
  blockHash: `0x${n.toString(16).padStart(64, '0')}`,
  chainId: '43114',
  blockTimestamp: 1_700_000_000 + n,
  parentHash: `0x${Math.max(0, n - 1).toString(16).padStart(64, '0')}`,
  txCount: 1,
  gasUsed: '21000',
  gasLimit: '8000000',
  baseFee: '25000000000',
  gasCost: '0',
  feesSpent: '525000000000000',
  cumulativeTransactions: String(n + 1),
  ...extra,
});

/** Three pages, latest first: blocks 9..6, 5..3, 2..0. */
const PAGES: Record<string, { blocks: ReturnType<typeof block>[]; nextPageToken?: string }> = {
  '': { blocks: [9, 8, 7, 6].map((n) => block(n)), nextPageToken: 't1' },
  t1: { blocks: [5, 4, 3].map((n) => block(n)), nextPageToken: 't2' },
  t2: { blocks: [2, 1, 0].map((n) => block(n)) },
};
const cleanPage = (url: URL): Reply => ({ body: JSON.stringify(PAGES[url.searchParams.get('pageToken') ?? '']) });

const run = { mode: 'backfill' as const, runId: 'r1', snapshotAt: 1_800_000_000 };

async function drain(core: SyncCore, partition: PartitionSpec, maxBatches = 20): Promise<void> {
  for (let i = 0; i < maxBatches; i++) {
    if ((await core.syncBatch({ partition, maxPages: 2, ...run })).done) return;
  }
  throw new Error(`partition ${partition.id} did not finish in ${maxBatches} batches (endless pagination?)`);
}

const count = async (w: Warehouse, table = 'evm_blocks') => Number((await w.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
const allBlocks = (w: Warehouse) => w.query('SELECT * FROM evm_blocks ORDER BY block_number');

describe('bad response bodies: retried, classified, nothing committed', () => {
  for (const [name, reply] of [
    ['malformed JSON', { body: '{"blocks": [ {"blockHash": 0x12 ]' }],
    ['truncated JSON (complete HTTP response)', { body: JSON.stringify(PAGES.t1).slice(0, 40) }],
    [
      'truncated body (connection dropped mid-body)',
      (_req: IncomingMessage, res: ServerResponse) => {
        const body = JSON.stringify(PAGES.t1);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        res.write(body.slice(0, 30));
        setTimeout(() => res.socket?.destroy(), 5);
      },
    ],
  ] as [string, Reply][]) {
    it(`${name} on page 2 -> RetryableApiError after retries; rows and checkpoint of page 1 unchanged`, async () => {
      const r = await rig();
      script = (url) => (url.searchParams.get('pageToken') === 't1' ? reply : cleanPage(url));
      const first = await r.core.syncBatch({ partition: r.partition, maxPages: 1, ...run });
      expect(first.checkpoint.pageToken).toBe('t1');
      const before = await r.core.readCheckpoint(r.partition.id);
      requests = [];
      const error = await r.core.syncBatch({ partition: r.partition, maxPages: 2, ...run }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RetryableApiError);
      expect((error as RetryableApiError).message.split('\n')).toHaveLength(1);
      expect(['bad-body', 'network']).toContain((error as RetryableApiError).reason);
      expect(requests.length).toBe(3); // first attempt + maxRetries (2)
      expect(await count(r.warehouse)).toBe(4);
      expect(await r.core.readCheckpoint(r.partition.id)).toEqual(before);
    });
  }

  it('a 200 without the list key -> ResponseValidationError naming `blocks`, not retried, nothing committed', async () => {
    const r = await rig();
    script = () => ({ body: '{"nextPageToken": null, "items": []}' });
    const error = await r.core.syncBatch({ partition: r.partition, maxPages: 2, ...run }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).kind).toBe('response-validation');
    expect((error as ResponseValidationError).path).toBe('blocks');
    expect((error as Error).message).toMatch(/invalid response at blocks/);
    expect(requests.length).toBe(1);
    expect(await count(r.warehouse)).toBe(0);
    expect(await r.core.readCheckpoint(r.partition.id)).toBeUndefined();
  });
});

describe('schema drift is stored as sent', () => {
  it('unknown extra fields and missing optional fields: row present, missing fields NULL', async () => {
    const r = await rig();
    script = () => ({
      body: JSON.stringify({
        blocks: [block(2, { brandNewField: { nested: [1, 2] }, anotherOne: 'x' }), { blockNumber: '1', blockHash: '0xabc' }],
        futureTopLevel: true,
      }),
    });
    await drain(r.core, r.partition);
    const rows = await allBlocks(r.warehouse);
    expect(rows.map((x) => String(x.block_number))).toEqual(['1', '2']);
    expect(rows[0]).toMatchObject({ block_hash: '0xabc', chain_id: '43114', parent_hash: null, tx_count: null, gas_used: null, base_fee: null, base_fee_num: null, block_timestamp: null });
    expect(rows[1].block_hash).toBe(block(2).blockHash);
  });

  it("unknown enum value txType 'FutureTx' (pn.transactions) is stored as-is", async () => {
    const r = await rig({ streams: ['pn.transactions'], networks: [{ network: 'mainnet', chains: ['p-chain'] }] });
    script = (url) =>
      url.pathname === '/v1/networks/mainnet/blockchains/p-chain/transactions'
        ? { body: JSON.stringify({ transactions: [{ txHash: 'tx-future', txType: 'FutureTx', blockTimestamp: 1_700_000_000, blockNumber: '5', somethingNew: [{ a: 1 }] }] }) }
        : { status: 404, body: '{"message":"not scripted"}' };
    await drain(r.core, r.partition);
    const rows = await r.warehouse.query('SELECT tx_hash, tx_type FROM pn_transactions');
    expect(rows).toEqual([{ tx_hash: 'tx-future', tx_type: 'FutureTx' }]);
  });
});

describe('numbers beyond 2^128 and 2^256-1', () => {
  const U256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
  const TWO_128_PLUS_1 = '340282366920938463463374607431768211457';
  const DEC38_MAX = '99999999999999999999999999999999999999';
  const BEYOND_U256 = `${U256_MAX}0`; // 79 digits: not a uint256 at all, still stored as text, never rounded

  it('are stored exactly in the VARCHAR column; the DECIMAL(38,0) twin is NULL when it does not fit', async () => {
    const r = await rig();
    script = () => ({
      body: JSON.stringify({
        blocks: [
          block(3, { baseFee: U256_MAX, gasCost: TWO_128_PLUS_1, feesSpent: DEC38_MAX, gasUsed: '18446744073709551616' }),
          block(2, { baseFee: BEYOND_U256, gasCost: '1', feesSpent: '0' }),
        ],
      }),
    });
    await drain(r.core, r.partition);
    const rows = await r.warehouse.query(
      `SELECT block_number, base_fee, CAST(base_fee_num AS VARCHAR) AS base_fee_num, gas_cost, CAST(gas_cost_num AS VARCHAR) AS gas_cost_num,
              fees_spent, CAST(fees_spent_num AS VARCHAR) AS fees_spent_num, CAST(gas_used AS VARCHAR) AS gas_used
       FROM evm_blocks ORDER BY block_number DESC`,
    );
    expect(rows[0]).toMatchObject({ base_fee: U256_MAX, base_fee_num: null, gas_cost: TWO_128_PLUS_1, gas_cost_num: null, fees_spent: DEC38_MAX, fees_spent_num: DEC38_MAX, gas_used: null });
    expect(rows[1]).toMatchObject({ base_fee: BEYOND_U256, base_fee_num: null, gas_cost: '1', gas_cost_num: '1', fees_spent: '0', fees_spent_num: '0' });
  });

  // The client parses bodies with parseJsonLossless (activities/api/losslessJson.ts): a bare integer
  // beyond 2^53 reaches the schema as its exact text, never as a rounded JS number.
  it('a uint256 sent as a bare JSON number is not rounded (stored exactly or rejected)', async () => {
    const r = await rig();
    script = () => ({ body: `{"blocks":[${JSON.stringify(block(1)).replace('"baseFee":"25000000000"', `"baseFee":${U256_MAX}`)}]}` });
    const outcome = await drain(r.core, r.partition).then(
      () => 'stored',
      (e: unknown) => e,
    );
    if (outcome === 'stored') expect((await allBlocks(r.warehouse))[0].base_fee).toBe(U256_MAX);
    else expect(outcome).toBeInstanceOf(ResponseValidationError);
  });
});

describe('page tokens from a misbehaving server', () => {
  it('a tampered/expired token (400 "Invalid page token") restarts from the durable cursor; final table equals the clean run', async () => {
    const clean = await rig();
    script = cleanPage;
    await drain(clean.core, clean.partition);
    const expected = await allBlocks(clean.warehouse);
    expect(expected).toHaveLength(10);

    const r = await rig();
    await r.core.syncBatch({ partition: r.partition, maxPages: 1, ...run }); // checkpoint holds t1
    let rejections = 0;
    script = (url) => {
      if (url.searchParams.get('pageToken') === 't1' && rejections < 2) {
        rejections++;
        return { status: 400, body: '{"statusCode":400,"message":"Invalid page token","error":"Bad Request"}' };
      }
      return cleanPage(url);
    };
    await drain(r.core, r.partition);
    expect(rejections).toBe(2);
    // The walk went back to its first page after the rejection.
    expect(requests.filter((u) => !u.searchParams.has('pageToken')).length).toBeGreaterThanOrEqual(1);
    expect(await allBlocks(r.warehouse)).toEqual(expected);
    expect((await r.core.readCheckpoint(r.partition.id))!.complete).toBe(true);
  });

  it('a repeated nextPageToken -> PaginationLoopError, no endless walk', async () => {
    const r = await rig();
    script = (url) => (url.searchParams.get('pageToken') === 'loop' ? { body: JSON.stringify({ blocks: [block(5)], nextPageToken: 'loop' }) } : { body: JSON.stringify({ blocks: [block(6)], nextPageToken: 'loop' }) });
    const error = await drain(r.core, r.partition, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationLoopError);
    expect((error as PaginationLoopError).message).toMatch(/repeated a nextPageToken/);
    expect(requests.length).toBeLessThan(10);
    // The looping page was not committed: only the first page's row, checkpoint still at its token.
    expect(await count(r.warehouse)).toBe(1);
    expect((await r.core.readCheckpoint(r.partition.id))!.pageToken).toBe('loop');
  });

  it('an empty nextPageToken ends the list (the public OpenAPI document says so): page committed, walk complete', async () => {
    const r = await rig();
    script = () => ({ body: JSON.stringify({ blocks: [block(6)], nextPageToken: '' }) });
    await drain(r.core, r.partition, 10);
    expect(requests).toHaveLength(1);
    expect(await count(r.warehouse)).toBe(1);
    expect((await r.core.readCheckpoint(r.partition.id))!.complete).toBe(true);
  });

  it('after a token restart, tokens seen before the restart are not mistaken for a loop', async () => {
    const r = await rig();
    let rejected = 0;
    script = (url) => {
      if (url.searchParams.get('pageToken') === 't2' && rejected < 2) {
        rejected++;
        return { status: 400, body: '{"message":"Invalid page token"}' };
      }
      return cleanPage(url);
    };
    // One batch of 5 pages: '', t1, t2 (rejected -> restart), '', t1 (t1 again, legitimately), t2.
    const result = await r.core.syncBatch({ partition: r.partition, maxPages: 5, ...run });
    expect(rejected).toBe(2);
    expect(result.done).toBe(true);
    expect(await count(r.warehouse)).toBe(10);
  });
});

describe('odd identifiers and paths', () => {
  it("an EVM chain id with SQL metacharacters is rejected by config validation", () => {
    expect(() => validateConfig({ evmChains: [{ chainId: "43114'; DROP TABLE evm_blocks;--" }] })).toThrow(ConfigError);
    expect(() => validateConfig({ evmChains: [{ chainId: "43114'; DROP TABLE evm_blocks;--" }] })).toThrow(/evmChains\[0\]\.chainId/);
    expect(() => validateConfig({ evmChains: [{ chainId: '43114', addresses: ["0x'; DROP TABLE x;--"] }] })).toThrow(/evmChains\[0\]\.addresses\[0\]/);
  });

  it('a partition id built from odd input is a safe identifier', () => {
    for (const odd of ["43114'; DROP TABLE evm_blocks;--", '../../etc/passwd', 'a b\n"c"\\d', 'ünïcødé', '']) {
      const id = partitionId('evm.blocks', odd);
      expect(id).toMatch(/^evm\.blocks\/[A-Za-z0-9._:-]*$/);
      expect(id).not.toMatch(/['";\s\\]/);
    }
  });

  it('chain ids with ../ sent by the server are stored as-is and the lake’s files stay inside its table’s directory', async () => {
    const r = await rig();
    script = () => ({ body: JSON.stringify({ blocks: [block(2, { chainId: '../../../escape' }), block(1, { chainId: '..' }), block(0, { chainId: '/abs/path' })] }) });
    await drain(r.core, r.partition);
    expect((await r.warehouse.query('SELECT chain_id FROM evm_blocks ORDER BY block_number')).map((x) => x.chain_id)).toEqual(['/abs/path', '..', '../../../escape']);
    // DuckLake names a partition's directory by its value, escaped (chain_id=..%2F..%2F..%2Fescape).
    const outDir = join(r.dir, 'nest', 'lake', 'data', 'main', 'evm_blocks');
    await exportLake(r.warehouse, allTables(), lakeOf({ dataDir: join(r.dir, 'nest') }), { tables: ['evm_blocks'], });
    const parquet = filesUnder(r.dir).filter((f) => f.endsWith('.parquet'));
    expect(parquet.length).toBeGreaterThan(0);
    for (const f of parquet) expect(relative(resolve(outDir), resolve(f)).startsWith('..')).toBe(false);
    expect(existsSync(join(r.dir, 'escape'))).toBe(false);
    expect(existsSync(join(r.dir, 'nest', 'escape'))).toBe(false);
  });
});
