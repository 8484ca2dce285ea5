/**
 * Client overhead benchmark: walks the same pages with the Data API client (limiter, retries,
 * validation, pagination) and with a bare fetch + JSON.parse loop, at the same concurrency, against
 * a simulator in a child process (so the server's CPU is not counted against either). Quota limits
 * are off on both sides: this measures what the client costs per page, not the API budget.
 *
 *   npx tsx bench/clientThroughput.ts [--concurrency 8] [--rounds 3] [--size small]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDataApiClient, endpoints } from '../activities/api/index.ts';
import type { BuiltRequest } from '../activities/api/endpoint.ts';

const { values } = parseArgs({ options: { concurrency: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' }, size: { type: 'string', default: 'small' } } });
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);

interface Ready {
  baseUrl: string;
  addresses: string[];
  contracts: { chainId: string; address: string; ercType: string }[];
}

const child = fork(fileURLToPath(new URL('./simulatorServe.ts', import.meta.url)), [JSON.stringify({ seed: 11, size: values.size })], { execArgv: ['--import', 'tsx'] });
const ready = await new Promise<Ready>((resolve) => child.on('message', (m: Ready & { type: string }) => m.type === 'ready' && resolve(m)));

// The walks: one per partition, run `concurrency` at a time.
const erc20 = ready.contracts.filter((c) => c.ercType === 'ERC-20');
const walks = [
  { endpoint: endpoints.evm.listBlocks, params: { chainId: '43114', pageSize: 100 } },
  { endpoint: endpoints.evm.listBlocks, params: { chainId: '43113', pageSize: 100 } },
  { endpoint: endpoints.evm.listLatestTransactions, params: { chainId: '43114', pageSize: 100 } },
  { endpoint: endpoints.evm.listLatestTransactions, params: { chainId: '43113', pageSize: 100 } },
  ...erc20.slice(0, 4).map((c) => ({ endpoint: endpoints.evm.listTransfers, params: { chainId: c.chainId, address: c.address, pageSize: 100 } })),
  ...ready.addresses.slice(0, 8).map((address) => ({ endpoint: endpoints.evm.listNativeTransactions, params: { chainId: '43114', address, pageSize: 100 } })),
];

interface Totals {
  pages: number;
  items: number;
  ms: number;
  /** CPU time of this (client) process: steadier than wall time on a shared machine. */
  cpuMs: number;
}

async function inParallel(run: (walk: (typeof walks)[number]) => Promise<{ pages: number; items: number }>): Promise<Totals> {
  const queue = [...walks];
  const totals = { pages: 0, items: 0 };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let walk = queue.shift(); walk; walk = queue.shift()) {
        const r = await run(walk);
        totals.pages += r.pages;
        totals.items += r.items;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { ...totals, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function bare(): Promise<Totals> {
  return inParallel(async ({ endpoint, params }) => {
    let pages = 0;
    let items = 0;
    let token: string | undefined;
    do {
      const built: BuiltRequest = endpoint.build({ ...params, pageToken: token } as never);
      const query = new URLSearchParams(Object.entries(built.query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
      const res = await fetch(`${ready.baseUrl}${built.path}?${query}`);
      const body = JSON.parse(await res.text()) as Record<string, unknown[]> & { nextPageToken?: string };
      pages++;
      items += body[endpoint.listKey].length;
      token = body.nextPageToken;
    } while (token);
    return { pages, items };
  });
}

async function viaClient(): Promise<Totals> {
  const client = createDataApiClient({
    baseUrl: ready.baseUrl,
    concurrency,
    shareRateLimiter: false,
    rateLimitOverride: { perWindow: Number.MAX_SAFE_INTEGER, perDay: Number.MAX_SAFE_INTEGER },
  });
  return inParallel(async ({ endpoint, params }) => {
    let pages = 0;
    let items = 0;
    for await (const page of client.pages(endpoint as never, params as never, { partition: JSON.stringify(params) })) {
      pages++;
      items += (page.items as unknown[]).length;
    }
    return { pages, items };
  });
}

const rate = (t: Totals) => ({ pagesPerSec: (t.pages / t.ms) * 1000, itemsPerSec: (t.items / t.ms) * 1000, cpuMsPerPage: t.cpuMs / t.pages });
const best = { bare: { pagesPerSec: 0, itemsPerSec: 0, cpuMsPerPage: 0 }, client: { pagesPerSec: 0, itemsPerSec: 0, cpuMsPerPage: 0 } };
await bare(); // warm-up: JIT, connections, simulator caches
for (let round = 1; round <= rounds; round++) {
  const b = await bare();
  const c = await viaClient();
  if (b.pages !== c.pages || b.items !== c.items) throw new Error(`walks differ: bare ${b.pages}/${b.items}, client ${c.pages}/${c.items}`);
  const [rb, rc] = [rate(b), rate(c)];
  console.log(
    `round ${round}: ${b.pages} pages, ${b.items} items | bare ${rb.pagesPerSec.toFixed(0)} pages/s, ${rb.cpuMsPerPage.toFixed(2)} CPU ms/page | client ${rc.pagesPerSec.toFixed(0)} pages/s, ${rc.cpuMsPerPage.toFixed(2)} CPU ms/page`,
  );
  if (rb.pagesPerSec > best.bare.pagesPerSec) best.bare = rb;
  if (rc.pagesPerSec > best.client.pagesPerSec) best.client = rc;
}
console.log(`\nconcurrency ${concurrency}, size ${values.size}, best of ${rounds}:`);
const row = (name: string, r: typeof best.bare) =>
  console.log(`  ${name.padEnd(22)} ${r.pagesPerSec.toFixed(0).padStart(6)} pages/s  ${r.itemsPerSec.toFixed(0).padStart(8)} items/s  ${r.cpuMsPerPage.toFixed(2)} client-CPU ms/page`);
row('bare fetch+JSON.parse', best.bare);
row('Data API client', best.client);
console.log(`  client / bare          ${(best.client.pagesPerSec / best.bare.pagesPerSec).toFixed(2)} (throughput ratio)`);
child.send({ type: 'stop' });
