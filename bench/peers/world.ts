/**
 * The peer world (bench:peer, bench:release): 10,000 EVM blocks, 5,000 primary-network transactions
 * per chain and 1,000 validators at scale 1 (seed 7, about 50k items), the four lists glacier-etl and
 * the peer load from it, the bare walk of their pages, and the glacier-etl config of those lists.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { BENCH_SIZE, type BenchSimulator } from '../benchWorld.ts';
import { validateConfig } from '../../worker/config.ts';

export const PEER_SEED = 7;

/** The world at `scale` (1: the issue's world). */
export const peerSize = (scale: number) => ({
  ...BENCH_SIZE,
  evmBlocks: Math.round(10_000 * scale),
  pnTxsPerChain: Math.round(5_000 * scale),
  validators: Math.round(1_000 * scale),
});

/** The four lists, as glacier-etl's streams. */
export const PEER_STREAMS = ['evm.blocks', 'evm.transactions', 'pn.transactions', 'pn.validators'] as const;
export type PeerStream = (typeof PEER_STREAMS)[number];

/** Each list's main table: one row per item. */
export const PEER_TABLES: Record<PeerStream, string> = {
  'evm.blocks': 'evm_blocks',
  'evm.transactions': 'evm_transactions',
  'pn.transactions': 'pn_transactions',
  'pn.validators': 'pn_validators',
};

/** Items glacier-etl loaded per list: one row per item in each list's main table (the same SQL for every release). */
export const COUNT_SQL = `SELECT ${PEER_STREAMS.map((s) => `(SELECT count(*) FROM ${PEER_TABLES[s]}) AS "${s}"`).join(', ')}`;

/** The lists both runners load: path and list key on the simulator, and dlt's table. */
export interface ListJob {
  list: string;
  table: string;
  path: string;
  listKey: string;
  params?: Record<string, number>;
}

export function peerLists(sim: BenchSimulator): ListJob[] {
  const chains = sim.world.evm.chains.filter((c) => c.network === 'mainnet');
  return [
    ...chains.flatMap((c) => [
      { list: 'evm.blocks', table: `evm_blocks_${c.chainId}`, path: `/v1/chains/${c.chainId}/blocks`, listKey: 'blocks' },
      { list: 'evm.transactions', table: `evm_transactions_${c.chainId}`, path: `/v1/chains/${c.chainId}/transactions`, listKey: 'transactions' },
    ]),
    { list: 'pn.transactions', table: 'pn_transactions_p_chain', path: '/v1/networks/mainnet/blockchains/p-chain/transactions', listKey: 'transactions' },
    // glacier-etl lists validators below 90% uptime too (the service's default filter drops them): the peer asks the same.
    { list: 'pn.validators', table: 'pn_validators', path: '/v1/networks/mainnet/validators', listKey: 'validators', params: { minUptimePerformance: 0 } },
  ];
}

/** Bare fetch + JSON.parse of every page of the lists, one walk per list, all lists at once: CPU of this process (the simulator runs in its own). */
export async function bareWalk(baseUrl: string, lists: ListJob[]): Promise<{ pages: number; seconds: number; cpuSeconds: number }> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const pages = await Promise.all(
    lists.map(async (l) => {
      let n = 0;
      let token: string | undefined;
      do {
        const extra = Object.entries(l.params ?? {}).map(([k, v]) => `&${k}=${v}`).join('');
        const url = `${baseUrl}${l.path}?pageSize=100${extra}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
        const page = JSON.parse(await (await fetch(url)).text()) as { nextPageToken?: string };
        token = page.nextPageToken;
        n++;
      } while (token);
      return n;
    }),
  );
  const used = process.cpuUsage(cpu);
  return { pages: pages.reduce((a, b) => a + b, 0), seconds: (performance.now() - t0) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/**
 * The glacier-etl config of the four lists on a simulator, written under dir; returns the file. The
 * world's mainnet EVM chains, the P-chain, no address or node-id partitions; 6 partitions in flight
 * and 6 requests, pageSize 100, as `npm run bench` runs it; every other key at its default (the
 * warehouse's memory limit included). Only the keys set here are written, so release 0.1.0's CLI
 * (whose schema refuses keys added since) reads the same file.
 */
export function writePeerConfig(on: Pick<BenchSimulator, 'baseUrl' | 'metricsUrl' | 'world'>, dir: string): string {
  const raw = {
    dataDir: join(dir, 'data'),
    api: { baseUrl: on.baseUrl, metricsUrl: on.metricsUrl, tier: 'pro', concurrency: 6, pageSize: 100 },
    partitionConcurrency: 6,
    streams: [...PEER_STREAMS],
    networks: [{ network: 'mainnet', chains: ['p-chain'], addresses: [], nodeIds: [], rewardsForDiscoveredValidators: false }],
    evmChains: on.world.evm.chains
      .filter((c) => c.network === 'mainnet')
      .map((c) => ({
        chainId: c.chainId,
        addresses: on.world.evm.addresses.slice(0, 3),
        contracts: on.world.evm.contracts.filter((t) => t.chainId === c.chainId).map((t) => t.address),
        transactions: on.world.evm.txHashes.filter((t) => t.chainId === c.chainId).map((t) => t.txHash),
        nfts: on.world.evm.nfts.filter((n) => n.chainId === c.chainId).map((n) => ({ contract: n.address, tokenId: n.tokenId })),
      })),
  };
  validateConfig(raw, 'peer config');
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, toYaml(raw));
  return configFile;
}
