import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidPageTokenError, PaginationLoopError } from '../../activities/api/errors.ts';
import type { Endpoint } from '../../activities/api/endpoint.ts';
import type { StreamClient } from '../../activities/streams/streamDef.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/index.ts';
import { resolveConfig, validateConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';

/**
 * The sync core's pagination rules, one case each, against a scripted server and a real DuckDB file:
 * an absent or empty token ends the walk, a repeated token is a loop, a rejected token restarts the
 * walk from its durable cursor once per position.
 */

const BLOCKS = 30;
const PAGE = 10;

/** The token the server hands out for the page starting at block `top` (first page: no token). */
type Script = (request: { token: string | undefined; top: number; sent: number }) => { next?: string | null; reject?: boolean } | undefined;

let dir: string | undefined;
let warehouse: Warehouse | undefined;

afterEach(async () => {
  await warehouse?.close();
  warehouse = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function setup(script: Script) {
  dir = mkdtempSync(join(tmpdir(), 'glacier-tokens-'));
  warehouse = await openWarehouse(join(dir, 'w.duckdb'));
  const config = resolveConfig(validateConfig({ dataDir: dir, streams: ['evm.blocks'], evmChains: [{ chainId: '43114' }], api: { baseUrl: 'http://unused', pageSize: PAGE } }), {});
  const requests: (string | undefined)[] = [];
  // Tokens are `p<top>-<n>`: the page's top block and a serial, so a fresh walk gets fresh tokens.
  let serial = 0;
  const client: StreamClient = {
    async call<P, R>(_endpoint: Endpoint<P, R>, params: P): Promise<R> {
      const { pageToken } = params as { pageToken?: string };
      requests.push(pageToken);
      const top = pageToken === undefined ? BLOCKS - 1 : Number(/^p(\d+)-/.exec(pageToken)![1]);
      const scripted = script({ token: pageToken, top, sent: requests.length }) ?? {};
      if (scripted.reject) throw new InvalidPageTokenError({ method: 'GET', target: '/v1/chains/43114/blocks' }, 400, 'Bad Request');
      const blocks = [];
      for (let b = top; b > top - PAGE && b >= 0; b--) blocks.push({ chainId: '43114', blockNumber: String(b), blockHash: `0x${b}`, blockTimestamp: 1_700_000_000 + b });
      const rest = top - PAGE;
      const next = 'next' in scripted ? scripted.next : rest >= 0 ? `p${rest}-${++serial}` : undefined;
      return { blocks, nextPageToken: next } as R;
    },
  };
  const core = createSyncCore({ client, warehouse, config, logger: createLogger({ level: 'silent' }) });
  const [partition] = await core.planPartitions({});
  const run = (maxPages = 100) => core.syncBatch({ partition, maxPages, mode: 'backfill', runId: 'r', snapshotAt: 1 });
  const stored = async () => {
    const [row] = await warehouse!.query('SELECT count(*)::INTEGER AS n, count(DISTINCT block_number)::INTEGER AS d FROM evm_blocks');
    return { n: row.n, distinct: row.d };
  };
  return { run, requests, stored };
}

describe('sync core pagination rules', () => {
  it('an absent token ends the walk', async () => {
    const t = await setup(() => undefined);
    expect((await t.run()).done).toBe(true);
    expect(await t.stored()).toEqual({ n: BLOCKS, distinct: BLOCKS });
  });

  it('an empty token ends the walk too (not a loop)', async () => {
    const t = await setup(({ top }) => (top < PAGE ? { next: '' } : undefined));
    const result = await t.run();
    expect(result.done).toBe(true);
    expect(result.checkpoint.complete).toBe(true);
    expect(await t.stored()).toEqual({ n: BLOCKS, distinct: BLOCKS });
    expect(t.requests).toHaveLength(3);
  });

  it('a repeated token is a loop: PaginationLoopError, pages before it kept', async () => {
    const t = await setup(({ token }) => (token !== undefined ? { next: token } : undefined));
    await expect(t.run()).rejects.toBeInstanceOf(PaginationLoopError);
    // The first page is kept; the page that handed back its own token is not taken.
    expect((await t.stored()).n).toBe(PAGE);
    expect(t.requests).toHaveLength(2);
  });

  it('a rejected token restarts the walk from its cursor once, and the walk completes exactly', async () => {
    let rejected = 0;
    const t = await setup(({ token, top }) => (token !== undefined && top === BLOCKS - 1 - 2 * PAGE && rejected++ === 0 ? { reject: true } : undefined));
    expect((await t.run()).done).toBe(true);
    expect(rejected).toBe(2);
    expect(await t.stored()).toEqual({ n: BLOCKS, distinct: BLOCKS });
    // page 0, page 1, rejected page 2; then page 0, 1, 2 again.
    expect(t.requests.map((r) => (r === undefined ? 'first' : 'token'))).toEqual(['first', 'token', 'token', 'first', 'token', 'token']);
  });

  it('a second rejection at the same position fails (non-retryable), even across batches', async () => {
    const t = await setup(({ token, top }) => (token !== undefined && top === BLOCKS - 1 - 2 * PAGE ? { reject: true } : undefined));
    // One page per batch: the position and the restart ride in the durable checkpoint.
    let error: unknown;
    for (let i = 0; i < 20 && error === undefined; i++) {
      try {
        if ((await t.run(1)).done) break;
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(InvalidPageTokenError);
    // page 0, page 1, rejected; restart: page 0, page 1, rejected again at the same position.
    expect(t.requests).toHaveLength(6);
  });

  it('rejections at different positions each restart once', async () => {
    const seen = new Set<number>();
    const t = await setup(({ token, top }) => {
      if (token === undefined || seen.has(top)) return undefined;
      seen.add(top);
      return { reject: true };
    });
    expect((await t.run()).done).toBe(true);
    expect(await t.stored()).toEqual({ n: BLOCKS, distinct: BLOCKS });
    expect(seen.size).toBe(2);
  });
});
