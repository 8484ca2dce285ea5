import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, WORLD_SIZES } from '../index.ts';
import type { Simulator } from '../index.ts';

/**
 * The exact bytes of the hot list pages, pinned by fingerprint. The list writers are tuned for
 * speed (items spelled byte by byte, spans copied as runs); this test is the guard that a tuning
 * change never changes a byte. An intended change of the format updates the snapshot
 * (`npx vitest run test/simulator/pageBytes.test.ts -u`) and says why in its commit.
 */

const CLOCK = 1_750_000_000_000;
const PAGES = 12;

async function fingerprint(sim: Simulator, path: string, pageSize: number): Promise<string> {
  const hash = createHash('sha256');
  let token: string | undefined;
  for (let i = 0; i < PAGES; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(`${sim.baseUrl}${path}${sep}pageSize=${pageSize}${token ? `&pageToken=${token}` : ''}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString()).toBe(200);
    hash.update(bytes);
    token = (JSON.parse(bytes.toString('utf8')) as { nextPageToken?: string }).nextPageToken;
    if (token === undefined) break;
  }
  return hash.digest('hex').slice(0, 16);
}

async function fingerprints(sim: Simulator): Promise<Record<string, string>> {
  const { evm } = sim.world.describe();
  const out: Record<string, string> = {};
  for (const chainId of ['43114', evm.contracts.find((c) => c.chainId !== '43114')!.chainId]) {
    const contract = (ercType: string): string => evm.contracts.find((c) => c.chainId === chainId && c.ercType === ercType)!.address;
    const cases: [string, string, number][] = [
      ['blocks', `/v1/chains/${chainId}/blocks`, 100],
      ['transactions', `/v1/chains/${chainId}/transactions`, 100],
      ['failed transactions', `/v1/chains/${chainId}/transactions?status=failed`, 37],
      ['address transactions', `/v1/chains/${chainId}/addresses/${evm.addresses[1]}/transactions:listNative`, 100],
      ['ERC-20 transfers', `/v1/chains/${chainId}/tokens/${contract('ERC-20')}/transfers`, 100],
      ['ERC-721 transfers', `/v1/chains/${chainId}/tokens/${contract('ERC-721')}/transfers`, 50],
      ['ERC-1155 transfers', `/v1/chains/${chainId}/tokens/${contract('ERC-1155')}/transfers`, 50],
    ];
    for (const [name, path, size] of cases) out[`${chainId} ${name}`] = await fingerprint(sim, path, size);
  }
  return out;
}

interface PrimaryDescription {
  mainnet: { addresses: string[]; nodeIds: string[] };
}

async function primaryFingerprints(sim: Simulator): Promise<Record<string, string>> {
  const { mainnet } = sim.world.describe().primary as PrimaryDescription;
  const net = '/v1/networks/mainnet';
  const chain = (c: string) => `${net}/blockchains/${c}`;
  const addrs = mainnet.addresses.slice(0, 3).map((a) => encodeURIComponent(a)).join(',');
  const cases: [string, string, number][] = [
    ['P-chain transactions', `${chain('p-chain')}/transactions`, 100],
    ['X-chain transactions', `${chain('x-chain')}/transactions`, 100],
    ['C-chain transactions', `${chain('c-chain')}/transactions`, 100],
    ['P-chain address transactions', `${chain('p-chain')}/transactions?addresses=${addrs}`, 25],
    ['X-chain UTXOs', `${chain('x-chain')}/utxos?addresses=${addrs}&includeSpent=true`, 40],
    ['validators', `${net}/validators`, 100],
    ['validators by capacity', `${net}/validators?sortBy=delegationCapacity&sortOrder=asc`, 30],
    ['validators by uptime', `${net}/validators?sortBy=uptimePerformance`, 30],
    ['historical rewards', `${net}/rewards?addresses=${addrs}`, 50],
    ['pending rewards', `${net}/rewards:listPending?nodeIds=${encodeURIComponent(mainnet.nodeIds.slice(0, 5).join(','))}`, 50],
    ['vertices', `${chain('x-chain')}/vertices`, 100],
  ];
  const out: Record<string, string> = {};
  for (const [name, path, size] of cases) out[name] = await fingerprint(sim, path, size);
  return out;
}

describe('hot list pages: exact bytes', () => {
  let tiny: Simulator;
  let huge: Simulator;
  beforeAll(async () => {
    tiny = await startSimulator({ seed: 3, size: 'tiny', clock: () => CLOCK });
    huge = await startSimulator({ seed: 5, size: { ...WORLD_SIZES.tiny, evmBlocks: 10_000_000 }, clock: () => CLOCK });
  });
  afterAll(async () => {
    await tiny?.close();
    await huge?.close();
  });

  it('tiny world', async () => {
    expect(await fingerprints(tiny)).toMatchInlineSnapshot(`
      {
        "43113 ERC-1155 transfers": "bd89c3a22b651e12",
        "43113 ERC-20 transfers": "f479772230c0b1f1",
        "43113 ERC-721 transfers": "d68c51b0c0ddc3a7",
        "43113 address transactions": "83b2a6f0741cfa18",
        "43113 blocks": "5dcd04fcc6881007",
        "43113 failed transactions": "0c213eef4c312f1d",
        "43113 transactions": "b1b2db6aabd2ff0d",
        "43114 ERC-1155 transfers": "eb227896d1f79324",
        "43114 ERC-20 transfers": "725db539111932cb",
        "43114 ERC-721 transfers": "6ead9cb5e2d4ee08",
        "43114 address transactions": "eeb03a14ee0966bf",
        "43114 blocks": "02cee27295f5543d",
        "43114 failed transactions": "bf721b6e3212f80d",
        "43114 transactions": "918d61303e426d38",
      }
    `);
  });

  it('primary network', async () => {
    expect(await primaryFingerprints(tiny)).toMatchInlineSnapshot(`
      {
        "C-chain transactions": "23ce40ead0812ed9",
        "P-chain address transactions": "52f104936077eeec",
        "P-chain transactions": "a3917fbfef0cf3cb",
        "X-chain UTXOs": "3cd8d4a6d939f258",
        "X-chain transactions": "7a4a76d9da5a9fd9",
        "historical rewards": "d14b6f9ef0e7b2a2",
        "pending rewards": "301d0613d738719c",
        "validators": "3fcaa4d7bd2e3bf7",
        "validators by capacity": "08d9afe858b5aee8",
        "validators by uptime": "fa7286a8ef40e62e",
        "vertices": "6695c5c0fb668ef8",
      }
    `);
  });

  it('pages served concurrently are the same bytes (page buffers are reused between responses)', async () => {
    const urls: string[] = [];
    const expected: string[] = [];
    for (const path of ['/v1/chains/43114/transactions', '/v1/chains/43114/blocks']) {
      let token: string | undefined;
      for (let i = 0; i < 8; i++) {
        const url = `${huge.baseUrl}${path}?pageSize=${40 + i * 8}${token ? `&pageToken=${token}` : ''}`;
        const text = await (await fetch(url)).text();
        urls.push(url);
        expected.push(text);
        token = (JSON.parse(text) as { nextPageToken: string }).nextPageToken;
      }
    }
    for (let round = 0; round < 3; round++) {
      const got = await Promise.all(urls.map(async (u) => (await fetch(u)).text()));
      expect(got).toEqual(expected);
    }
  });

  it('10M-block world', async () => {
    expect(await fingerprints(huge)).toMatchInlineSnapshot(`
      {
        "43113 ERC-1155 transfers": "565cb5eca72ebe27",
        "43113 ERC-20 transfers": "d01c79157907708b",
        "43113 ERC-721 transfers": "9ef8e83627b86581",
        "43113 address transactions": "979164acf49a54d0",
        "43113 blocks": "1b212f60d123b2af",
        "43113 failed transactions": "566d4122a08fa7dd",
        "43113 transactions": "115c793e0ec5ef80",
        "43114 ERC-1155 transfers": "f32ac15eeb990eea",
        "43114 ERC-20 transfers": "78452d8584324c6d",
        "43114 ERC-721 transfers": "3124e3403ffcbf61",
        "43114 address transactions": "879cceadc8619d61",
        "43114 blocks": "9c7b6b5941426b1d",
        "43114 failed transactions": "8476608110c78f23",
        "43114 transactions": "4d03b86dec942a34",
      }
    `);
  });
});
