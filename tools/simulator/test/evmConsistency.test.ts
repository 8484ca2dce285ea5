import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { getJson } from './simHttp.ts';

/** The EVM world agrees with itself: blocks vs txs, lists vs details, balances and holders vs transfers. */

interface Tx { txHash: string; gasUsed: string; gasPrice: string; blockNumber: string; blockIndex: number; blockTimestamp: number; txStatus: string; from: { address: string }; to: { address: string } }
interface Block { blockNumber: string; gasUsed: string; feesSpent: string; blockHash: string; parentHash: string; txCount: number; cumulativeTransactions: string; blockTimestamp: number }
interface Transfer {
  txHash: string; blockNumber: string; blockTimestamp: number; logIndex: number; from: { address: string }; to: { address: string }; value?: string;
  erc20Token?: { address: string }; erc721Token?: { tokenId: string }; erc1155Token?: { tokenId: string };
}

let sim: Simulator;
let contracts: { chainId: string; address: string; ercType: string }[];
let addresses: string[];
const ZERO = '0x0000000000000000000000000000000000000000';

beforeAll(async () => {
  sim = await startSimulator({ seed: 21, size: 'tiny' });
  sim.advance(7);
  contracts = sim.world.describe().evm.contracts.filter((c) => c.chainId === '43114');
  addresses = sim.world.describe().evm.addresses;
});
afterAll(async () => {
  await sim.close();
});

const truth = async <T>(path: string, query: Record<string, string> = {}) => (await sim.groundTruth('GET', path, query)) as T[];

/** Transfers of a contract in chain order (the list is latest first). */
const ascending = (ts: Transfer[]) => [...ts].reverse();

describe('blocks and transactions', () => {
  it.each(['43114', '43113', '779672', '99871'])('chain %s: txCount, gas, fees, cumulativeTransactions, parentHash, timestamps agree with the tx list', async (chainId) => {
    const blocks = (await truth<Block>(`/v1/chains/${chainId}/blocks`)).reverse();
    const txs = (await truth<Tx>(`/v1/chains/${chainId}/transactions`)).reverse();
    const perBlock = new Map<string, Tx[]>();
    for (const t of txs) perBlock.set(t.blockNumber, [...(perBlock.get(t.blockNumber) ?? []), t]);
    let cumulative = 0;
    blocks.forEach((b, i) => {
      expect(Number(b.blockNumber)).toBe(i);
      const mine = perBlock.get(b.blockNumber) ?? [];
      expect(b.txCount).toBe(mine.length);
      expect(mine.map((t) => t.blockIndex)).toEqual(mine.map((_, j) => j));
      for (const t of mine) expect(t.blockTimestamp).toBe(b.blockTimestamp);
      expect(b.gasUsed).toBe(String(mine.reduce((sum, t) => sum + BigInt(t.gasUsed), 0n)));
      expect(b.feesSpent).toBe(String(mine.reduce((sum, t) => sum + BigInt(t.gasUsed) * BigInt(t.gasPrice), 0n)));
      cumulative += b.txCount;
      expect(b.cumulativeTransactions).toBe(String(cumulative));
      if (i > 0) {
        expect(b.parentHash).toBe(blocks[i - 1].blockHash);
        expect(b.blockTimestamp).toBeGreaterThan(blocks[i - 1].blockTimestamp);
      }
    });
    expect(cumulative).toBe(txs.length);
    expect(new Set(txs.map((t) => t.txHash)).size).toBe(txs.length);
  });

  it('status filters split the list by txStatus', async () => {
    const all = await truth<Tx>('/v1/chains/43114/transactions');
    const failed = await truth<Tx>('/v1/chains/43114/transactions', { status: 'failed' });
    const success = await truth<Tx>('/v1/chains/43114/transactions', { status: 'success' });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed).toEqual(all.filter((t) => t.txStatus === '0'));
    expect(success).toEqual(all.filter((t) => t.txStatus === '1'));
  });

  it('address lists are the chain list filtered by from/to, within [startBlock, endBlock)', async () => {
    const all = await truth<Tx>('/v1/chains/43114/transactions');
    for (const a of [...addresses.slice(0, 4), contracts[0].address]) {
      const involved = all.filter((t) => t.from.address === a || t.to.address === a);
      expect(involved.length).toBeGreaterThan(0);
      expect(await truth<Tx>(`/v1/chains/43114/addresses/${a}/transactions:listNative`)).toEqual(involved);
      const ranged = involved.filter((t) => Number(t.blockNumber) >= 40 && Number(t.blockNumber) < 170);
      expect(await truth<Tx>(`/v1/chains/43114/addresses/${a}/transactions:listNative`, { startBlock: '40', endBlock: '170' })).toEqual(ranged);
    }
  });

  it('a transaction detail embeds the same native transaction as the lists', async () => {
    const all = await truth<Tx>('/v1/chains/43114/transactions');
    for (const t of all.slice(0, 30)) {
      const res = await getJson(`${sim.baseUrl}/v1/chains/43114/transactions/${t.txHash}`);
      expect(res.body.nativeTransaction).toMatchObject(t as unknown as Record<string, unknown>);
    }
  });
});

describe('token transfers', () => {
  it('every transfer of every contract appears in its transaction detail, and nothing else does', async () => {
    const all = await truth<Tx>('/v1/chains/43114/transactions');
    const byTx = new Map<string, Transfer[]>();
    for (const c of contracts) {
      for (const tr of await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`)) byTx.set(tr.txHash, [...(byTx.get(tr.txHash) ?? []), tr]);
    }
    // The txs with transfers plus a sample of the others.
    const hashes = [...byTx.keys(), ...all.filter((t) => !byTx.has(t.txHash)).slice(0, 20).map((t) => t.txHash)];
    for (const hash of hashes) {
      const res = await getJson(`${sim.baseUrl}/v1/chains/43114/transactions/${hash}`);
      const detail = res.body as Record<string, Record<string, unknown>[]>;
      const inDetail = [...detail.erc20Transfers, ...detail.erc721Transfers, ...detail.erc1155Transfers];
      const listed = byTx.get(hash) ?? [];
      expect(inDetail.length).toBe(listed.length);
      for (const tr of listed) {
        const { blockNumber: _b, blockTimestamp: _t, blockHash: _h, txHash: _x, ...rest } = tr as unknown as Record<string, unknown>;
        expect(inDetail).toContainEqual(rest);
      }
    }
  });

  it('ERC-20 balances at any block equal the transfers in minus out up to that block', async () => {
    const tip = sim.world.evm.chain('43114')!.chain.tip();
    for (const c of contracts.filter((x) => x.ercType === 'ERC-20')) {
      const transfers = ascending(await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`));
      for (const block of [3, 120, tip]) {
        const sums = new Map<string, bigint>();
        for (const tr of transfers.filter((t) => Number(t.blockNumber) <= block)) {
          if (tr.from.address !== ZERO) sums.set(tr.from.address, (sums.get(tr.from.address) ?? 0n) - BigInt(tr.value!));
          sums.set(tr.to.address, (sums.get(tr.to.address) ?? 0n) + BigInt(tr.value!));
        }
        for (const a of addresses) {
          const list = await truth<{ address: string; balance: string }>(`/v1/chains/43114/addresses/${a}/balances:listErc20`, {
            blockNumber: String(block), filterSpamTokens: 'false', contractAddresses: c.address,
          });
          const want = sums.get(a) ?? 0n;
          expect(want).toBeGreaterThanOrEqual(0n);
          expect(list.length ? BigInt(list[0].balance) : 0n, `${a} ${c.address} @${block}`).toBe(want);
        }
      }
    }
  });

  it('ERC-721 owners and ERC-1155 balances equal the replayed transfers', async () => {
    for (const c of contracts.filter((x) => x.ercType !== 'ERC-20')) {
      const transfers = ascending(await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`));
      const block = 150;
      const held = new Map<string, bigint>(); // address/tokenId -> amount
      for (const tr of transfers.filter((t) => Number(t.blockNumber) <= block)) {
        const id = (tr.erc721Token ?? tr.erc1155Token)!.tokenId;
        const amount = BigInt(tr.value ?? '1');
        if (tr.from.address !== ZERO) held.set(`${tr.from.address}/${id}`, (held.get(`${tr.from.address}/${id}`) ?? 0n) - amount);
        held.set(`${tr.to.address}/${id}`, (held.get(`${tr.to.address}/${id}`) ?? 0n) + amount);
      }
      for (const a of addresses) {
        const want = [...held].filter(([k, v]) => k.startsWith(a) && v > 0n).map(([k, v]) => [k.split('/')[1], String(v)]).sort();
        if (c.ercType === 'ERC-721') {
          // The ERC-721 list has no blockNumber: compare at the tip.
          const all = ascending(await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`));
          const owner = new Map<string, string>();
          for (const tr of all) owner.set(tr.erc721Token!.tokenId, tr.to.address);
          const mine = [...owner].filter(([, o]) => o === a).map(([id]) => id).sort();
          const list = await truth<{ tokenId: string; ownerAddress: string }>(`/v1/chains/43114/addresses/${a}/balances:listErc721`, { contractAddress: c.address });
          expect(list.map((x) => x.tokenId).sort()).toEqual(mine);
        } else {
          const list = await truth<{ tokenId: string; balance: string }>(`/v1/chains/43114/addresses/${a}/balances:listErc1155`, { contractAddress: c.address, blockNumber: String(block) });
          expect(list.map((x) => [x.tokenId, x.balance]).sort()).toEqual(want);
        }
      }
    }
  });

  it("an NFT's metadataLastUpdatedTimestamp is its last transfer's block time, in balances and in the token lookup", async () => {
    const tip = sim.world.evm.chain('43114')!.chain.tip();
    let checked = 0;
    for (const c of contracts.filter((x) => x.ercType !== 'ERC-20')) {
      const transfers = ascending(await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`));
      for (const block of c.ercType === 'ERC-721' ? [tip] : [150, tip]) {
        const moved = new Map<string, number>();
        for (const tr of transfers.filter((t) => Number(t.blockNumber) <= block)) moved.set((tr.erc721Token ?? tr.erc1155Token)!.tokenId, tr.blockTimestamp);
        for (const a of addresses) {
          const path = `/v1/chains/43114/addresses/${a}/balances:${c.ercType === 'ERC-721' ? 'listErc721' : 'listErc1155'}`;
          const query: Record<string, string> = c.ercType === 'ERC-721' ? { contractAddress: c.address } : { contractAddress: c.address, blockNumber: String(block) };
          for (const held of await truth<{ tokenId: string; metadata: { metadataLastUpdatedTimestamp: number } }>(path, query)) {
            expect(held.metadata.metadataLastUpdatedTimestamp, `${c.address} #${held.tokenId} @${block}`).toBe(moved.get(held.tokenId));
            if (block !== tip) continue;
            const one = await getJson(`${sim.baseUrl}/v1/chains/43114/nfts/collections/${c.address}/tokens/${held.tokenId}`);
            expect((one.body as { metadata: { metadataLastUpdatedTimestamp: number } }).metadata.metadataLastUpdatedTimestamp).toBe(moved.get(held.tokenId));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('holder metrics equal a replay of the transfers over the time frame', async () => {
    for (const c of contracts.filter((x) => x.ercType === 'ERC-20')) {
      const transfers = ascending(await truth<Transfer>(`/v1/chains/43114/tokens/${c.address}/transfers`));
      const t0 = transfers[0].blockTimestamp;
      const frames: [number | undefined, number | undefined][] = [[undefined, undefined], [t0 + 100, t0 + 300], [t0 + 400, undefined]];
      const values = transfers.map((t) => BigInt(t.value!)).sort((a, b) => (a < b ? -1 : 1));
      for (const threshold of [0n, values[Math.floor(values.length / 2)]]) {
        for (const [start, end] of frames) {
          const s = start ?? 0;
          const e = end ?? Number.MAX_SAFE_INTEGER;
          const bal = new Map<string, bigint>();
          const apply = (tr: Transfer) => {
            if (tr.from.address !== ZERO) bal.set(tr.from.address, (bal.get(tr.from.address) ?? 0n) - BigInt(tr.value!));
            bal.set(tr.to.address, (bal.get(tr.to.address) ?? 0n) + BigInt(tr.value!));
          };
          const qualified = new Set<string>();
          const check = () => {
            for (const [a, v] of bal) if (v > threshold) qualified.add(a);
          };
          let i = 0;
          for (; i < transfers.length && transfers[i].blockTimestamp <= s; i++) apply(transfers[i]);
          check();
          while (i < transfers.length && transfers[i].blockTimestamp <= e) {
            const block = transfers[i].blockNumber;
            for (; i < transfers.length && transfers[i].blockNumber === block; i++) apply(transfers[i]);
            check();
          }
          const want = [...qualified].sort((a, b) => {
            const [va, vb] = [bal.get(a)!, bal.get(b)!];
            return va > vb ? -1 : va < vb ? 1 : a < b ? -1 : 1;
          });
          const query: Record<string, string> = { threshold: String(threshold) };
          if (start !== undefined) query.startTimestamp = String(start);
          if (end !== undefined) query.endTimestamp = String(end);
          const got = await truth<{ address: string; sortKey: string }>(`/v2/chains/43114/contracts/${c.address}/balances`, query);
          expect(got.map((h) => h.address), `${c.address} ${threshold} ${start}-${end}`).toEqual(want);
          // sortKey is the holder's balance at the end of the frame, exact decimal text.
          expect(got.map((h) => h.sortKey)).toEqual(want.map((a) => String(bal.get(a))));
        }
      }
    }
  });
});
