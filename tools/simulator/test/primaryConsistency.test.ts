import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { verifyProofOfPossession } from '../primary/blsKeys.ts';
import { PrimaryWorld } from '../primary/primaryWorld.ts';
import { WORLD_SIZES } from '../world/size.ts';
import { getJson, walk } from './simHttp.ts';

/** Each consistency relation of the primary-network world, checked through the endpoints. */

interface Amount { assetId: string; amount: string }
interface U {
  utxoId: string; txHash: string; amount: string; assetId: string; addresses: string[]; blockTimestamp: number; blockNumber: string;
  consumingTxHash?: string; consumingBlockNumber?: string; consumingBlockTimestamp?: number; createdOnChainId: string; consumedOnChainId: string;
  staked: boolean; platformLocktime: number; stakeableLocktime: number; utxoStartTimestamp?: number; rewardType?: string;
}
interface T {
  txHash: string; txType: string; blockTimestamp: number; blockNumber?: string; consumedUtxos: U[]; emittedUtxos: U[]; chainFormat?: string;
  amountBurned: Amount[]; amountStaked: Amount[]; amountL1ValidatorBalanceBurned: Amount[]; nodeId?: string; startTimestamp?: number; endTimestamp?: number;
  delegationFeePercent?: string; estimatedReward?: string; rewardTxHash?: string; stakingTxHash?: string; blsCredentials?: { publicKey: string; proofOfPossession: string };
  subnetId?: string;
}
interface PnDescription { addresses: string[]; nodeIds: string[]; chainIds: Record<string, string>; headTimestamp: number }

const N = '/v1/networks/mainnet';
const CHAINS = ['p-chain', 'x-chain', 'c-chain'] as const;
let sim: Simulator;
let pn: PnDescription;
const txs: Record<string, T[]> = {};
/** Every UTXO of every described address, per listing chain, from the UTXO endpoint (spent included). */
const utxoLists: Record<string, Map<string, U>> = {};

const truth = async <I>(path: string, query: Record<string, string> = {}) => (await sim.groundTruth('GET', path, query)) as I[];

/**
 * The fields every chain's UTXO shape carries, under the PChainUtxo names: the generic X/C shape
 * (creationTxHash, timestamp, locktime, outputIndex as text, amount in asset) is restated, so a
 * UTXO can be compared across the P-chain transaction that emitted it and the X-chain list.
 */
type Raw = Record<string, unknown> & { asset: Amount };
function canonUtxo(r: Raw): U {
  const generic = 'creationTxHash' in r;
  const u = {
    utxoId: r.utxoId, txHash: generic ? r.creationTxHash : r.txHash, amount: r.asset.amount, assetId: r.asset.assetId, asset: r.asset, addresses: r.addresses,
    blockTimestamp: generic ? r.timestamp : r.blockTimestamp, consumingTxHash: r.consumingTxHash,
    consumingBlockTimestamp: generic ? r.consumingTxTimestamp : r.consumingBlockTimestamp, createdOnChainId: r.createdOnChainId, consumedOnChainId: r.consumedOnChainId,
    platformLocktime: generic ? r.locktime : r.platformLocktime, outputIndex: Number(r.outputIndex), threshold: r.threshold, utxoBytes: r.utxoBytes,
    // P-chain only: generic UTXOs are never staked.
    staked: generic ? false : r.staked, stakeableLocktime: generic ? 0 : r.stakeableLocktime, utxoStartTimestamp: r.utxoStartTimestamp, rewardType: r.rewardType,
    consumingBlockNumber: r.consumingBlockNumber, blockNumber: r.blockNumber,
  };
  if (r.amount !== undefined) expect(r.amount).toBe(r.asset.amount);
  return u as U;
}
/** Compares UTXOs on the fields all shapes share. */
const common = (u: U | undefined) => u && plain({ ...u, staked: undefined, stakeableLocktime: undefined, utxoStartTimestamp: undefined, rewardType: undefined, consumingBlockNumber: undefined, blockNumber: undefined });

/** A transaction of any chain's shape under the PChainTransaction names (X/C: timestamp, blockHeight; burned = unlocked - created). */
function canonTx(r: Record<string, unknown>): T {
  const t = r as unknown as T & { timestamp?: number; blockHeight?: number; amountUnlocked?: Amount[]; amountCreated?: Amount[] };
  const burned = t.amountBurned ?? (t.amountUnlocked ?? []).flatMap((a) => {
    const created = (t.amountCreated ?? []).find((c) => c.assetId === a.assetId);
    const diff = BigInt(a.amount) - BigInt(created?.amount ?? 0);
    return diff > 0n ? [{ assetId: a.assetId, amount: diff.toString() }] : [];
  });
  return {
    ...t,
    blockTimestamp: t.blockTimestamp ?? t.timestamp!,
    blockNumber: t.blockNumber ?? (t.blockHeight === undefined ? undefined : String(t.blockHeight)),
    consumedUtxos: ((t.consumedUtxos ?? []) as unknown as Raw[]).map(canonUtxo),
    emittedUtxos: ((t.emittedUtxos ?? []) as unknown as Raw[]).map(canonUtxo),
    amountBurned: burned,
    amountStaked: t.amountStaked ?? [],
    amountL1ValidatorBalanceBurned: t.amountL1ValidatorBalanceBurned ?? [],
  };
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 33, size: 'tiny' });
  pn = (sim.world.describe().primary as Record<string, PnDescription>).mainnet;
  for (const c of CHAINS) {
    txs[c] = (await truth<Record<string, unknown>>(`${N}/blockchains/${c}/transactions`, { sortOrder: 'asc' })).map(canonTx);
    utxoLists[c] = new Map();
    for (const a of pn.addresses) for (const u of await truth<Raw>(`${N}/blockchains/${c}/utxos`, { addresses: a, includeSpent: 'true' })) utxoLists[c].set(String(u.utxoId), canonUtxo(u));
  }
});
afterAll(async () => {
  await sim.close();
});

const chainOfId = (id: string) => CHAINS.find((c) => pn.chainIds[c] === id)!;
const plain = <X>(x: X): X => JSON.parse(JSON.stringify(x)) as X;

describe('UTXOs and transactions', () => {
  it('every emitted UTXO is exactly the one the UTXO list shows for its addresses (on the chain that lists it)', () => {
    let checked = 0;
    for (const c of CHAINS) {
      for (const t of txs[c]) {
        for (const u of t.emittedUtxos) {
          expect(u.txHash).toBe(t.txHash);
          expect(u.blockTimestamp).toBe(t.blockTimestamp);
          const listed = utxoLists[chainOfId(u.consumedOnChainId)].get(u.utxoId);
          // Same shape (same chain): every field; across shapes: the fields both carry.
          if (c === chainOfId(u.consumedOnChainId)) expect(plain(listed)).toEqual(plain(u));
          else expect(common(listed)).toEqual(common(u));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('a consumed UTXO names its consuming transaction and block, was emitted earlier, and includeSpent hides it', async () => {
    const emittedBy = new Map<string, T>();
    for (const c of CHAINS) for (const t of txs[c]) for (const u of t.emittedUtxos) emittedBy.set(u.utxoId, t);
    let consumed = 0;
    for (const c of CHAINS) {
      for (const t of txs[c]) {
        for (const u of t.consumedUtxos) {
          expect(u.consumingTxHash).toBe(t.txHash);
          if (c === 'p-chain') expect(u.consumingBlockNumber).toBe(t.blockNumber);
          expect(u.consumingBlockTimestamp).toBe(t.blockTimestamp);
          expect(emittedBy.get(u.utxoId)!.blockTimestamp).toBeLessThanOrEqual(t.blockTimestamp);
          consumed++;
        }
      }
    }
    expect(consumed).toBeGreaterThan(100);
    const a = pn.addresses[0];
    const unspent = await truth<U>(`${N}/blockchains/p-chain/utxos`, { addresses: a });
    const all = await truth<U>(`${N}/blockchains/p-chain/utxos`, { addresses: a, includeSpent: 'true' });
    expect(unspent.every((u) => u.consumingTxHash === undefined)).toBe(true);
    expect(all.filter((u) => u.consumingTxHash === undefined).map((u) => u.utxoId).sort()).toEqual(unspent.map((u) => u.utxoId).sort());
    expect(all.length).toBeGreaterThan(unspent.length);
  });

  it('amounts are conserved: consumed = emitted + burned (+ L1 balance); reward transactions add exactly their reward UTXOs', () => {
    const sum = (list: { assetId: string; amount: string }[]) => {
      const m = new Map<string, bigint>();
      for (const x of list) m.set(x.assetId, (m.get(x.assetId) ?? 0n) + BigInt(x.amount));
      return m;
    };
    const types = new Set<string>();
    for (const c of ['p-chain', 'x-chain'] as const) {
      for (const t of txs[c]) {
        if (t.consumedUtxos.length === 0) continue; // genesis allocation
        const inAmounts = sum(t.consumedUtxos);
        const outAmounts = sum(t.emittedUtxos);
        if (t.txType === 'RewardValidatorTx') {
          const rewards = sum(t.emittedUtxos.filter((u) => u.rewardType));
          for (const [asset, v] of outAmounts) expect(v - (inAmounts.get(asset) ?? 0n)).toBe(rewards.get(asset) ?? 0n);
          continue;
        }
        const burned = sum([...t.amountBurned, ...t.amountL1ValidatorBalanceBurned]);
        const assets = new Set([...inAmounts.keys(), ...outAmounts.keys()]);
        for (const asset of assets) {
          if (t.txType === 'CreateAssetTx' && !inAmounts.has(asset)) continue; // the new asset's minted supply
          expect(inAmounts.get(asset) ?? 0n, `${t.txType} ${t.txHash}`).toBe((outAmounts.get(asset) ?? 0n) + (burned.get(asset) ?? 0n));
        }
        types.add(t.txType);
      }
    }
    expect(types.size).toBeGreaterThan(15);
  });

  it('holds every transaction type of each chain', () => {
    const p = new Set(txs['p-chain'].map((t) => t.txType));
    for (const t of ['AddValidatorTx', 'AddDelegatorTx', 'AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'RewardValidatorTx', 'ImportTx', 'ExportTx', 'BaseTx', 'CreateSubnetTx', 'CreateChainTx', 'AddSubnetValidatorTx', 'RemoveSubnetValidatorTx', 'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx', 'IncreaseL1ValidatorBalanceTx', 'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx']) expect(p).toContain(t);
    expect(new Set(txs['x-chain'].map((t) => t.txType))).toEqual(new Set(['BaseTx', 'CreateAssetTx', 'OperationTx', 'ImportTx', 'ExportTx']));
    expect(new Set(txs['c-chain'].map((t) => t.txType))).toEqual(new Set(['ImportTx', 'ExportTx']));
  });
});

describe('balances', () => {
  /** The bucket rules, restated independently of the simulator's code. */
  function expected(chain: string, address: string, t: number): Record<string, Map<string, { amount: bigint; count: number }>> {
    const out: Record<string, Map<string, { amount: bigint; count: number }>> = {};
    for (const u of utxoLists[chain].values()) {
      if (!u.addresses.includes(address) || u.blockTimestamp > t || (u.consumingBlockTimestamp !== undefined && u.consumingBlockTimestamp <= t)) continue;
      let bucket: string;
      if (u.createdOnChainId !== pn.chainIds[chain]) bucket = u.platformLocktime > t ? 'atomicMemoryLocked' : 'atomicMemoryUnlocked';
      else if (chain === 'x-chain') bucket = u.platformLocktime > t ? 'locked' : 'unlocked';
      else if (u.staked) bucket = (u.utxoStartTimestamp ?? 0) > t ? 'pendingStaked' : u.stakeableLocktime > t ? 'lockedStaked' : 'unlockedStaked';
      else bucket = u.platformLocktime > t ? 'lockedPlatform' : u.stakeableLocktime > t ? 'lockedStakeable' : 'unlockedUnstaked';
      const key = bucket.startsWith('atomic') ? `${u.assetId}|${u.createdOnChainId}` : u.assetId;
      const m = (out[bucket] ??= new Map());
      const e = m.get(key) ?? { amount: 0n, count: 0 };
      e.amount += BigInt(u.amount);
      e.count++;
      m.set(key, e);
    }
    return out;
  }

  it('equal the sums of the matching UTXOs at each blockTimestamp, bucket by bucket', async () => {
    const times = [txs['p-chain'][0].blockTimestamp, txs['p-chain'][Math.floor(txs['p-chain'].length / 3)].blockTimestamp, txs['p-chain'][Math.floor((2 * txs['p-chain'].length) / 3)].blockTimestamp, pn.headTimestamp];
    const seen = new Set<string>();
    for (const chain of CHAINS) {
      for (const address of pn.addresses.slice(0, 4)) {
        for (const t of times) {
          const res = await getJson(`${sim.baseUrl}${N}/blockchains/${chain}/balances?addresses=P-${address}&blockTimestamp=${t}`);
          expect(res.status).toBe(200);
          const balances = res.body.balances as Record<string, { assetId: string; amount: string; utxoCount: number; sharedWithChainId?: string }[]>;
          const want = expected(chain, address, t);
          for (const [bucket, entries] of Object.entries(balances)) {
            const got = new Map(entries.map((e) => [e.sharedWithChainId ? `${e.assetId}|${e.sharedWithChainId}` : e.assetId, { amount: BigInt(e.amount), count: e.utxoCount }]));
            expect(got, `${chain} ${bucket} @${t}`).toEqual(want[bucket] ?? new Map());
            if (entries.length > 0) seen.add(bucket);
          }
          if (chain === 'c-chain') expect(Object.keys(balances).sort()).toEqual(['atomicMemoryLocked', 'atomicMemoryUnlocked']);
          if (chain === 'x-chain') expect(Object.keys(balances).sort()).toEqual(['atomicMemoryLocked', 'atomicMemoryUnlocked', 'locked', 'unlocked']);
        }
      }
    }
    // The world exercises the buckets, not just unlocked funds.
    for (const b of ['unlockedUnstaked', 'unlockedStaked', 'lockedStakeable', 'atomicMemoryUnlocked', 'unlocked']) expect(seen).toContain(b);
  });
});

describe('validators and rewards', () => {
  type V = {
    txHash: string; nodeId: string; subnetId: string; amountStaked: string; delegationFee?: string; startTimestamp: number; endTimestamp: number;
    blsCredentials?: { publicKey: string; proofOfPossession: string }; delegatorCount?: number; amountDelegated?: string; validationStatus: string;
    rewards?: { validationRewardAmount: string; delegationRewardAmount: string; rewardAddresses: string[]; rewardTxHash: string };
  };
  let validators: V[];
  let byHash: Map<string, T>;

  beforeAll(async () => {
    validators = await truth<V>(`${N}/validators`, { minUptimePerformance: '0' });
    byHash = new Map(txs['p-chain'].map((t) => [t.txHash, t]));
  });

  it('derive from the Add*ValidatorTx transactions (stake, fee, times, BLS, delegators, status from the clock)', () => {
    const primary = validators.filter((v) => v.subnetId === pn.chainIds['p-chain']);
    expect(primary.length).toBeGreaterThan(10);
    const statuses = new Set<string>();
    for (const v of validators) {
      const tx = byHash.get(v.txHash)!;
      expect(tx.nodeId).toBe(v.nodeId);
      expect(tx.startTimestamp).toBe(v.startTimestamp);
      expect(tx.endTimestamp).toBe(v.endTimestamp);
      statuses.add(v.validationStatus);
      if (v.validationStatus !== 'removed') {
        const want = v.startTimestamp > pn.headTimestamp ? 'pending' : v.endTimestamp <= pn.headTimestamp ? 'completed' : 'active';
        expect(v.validationStatus).toBe(want);
      }
      if (v.subnetId !== pn.chainIds['p-chain']) {
        expect(tx.txType).toBe('AddSubnetValidatorTx');
        continue;
      }
      expect(['AddValidatorTx', 'AddPermissionlessValidatorTx']).toContain(tx.txType);
      expect(tx.amountStaked[0].amount).toBe(v.amountStaked);
      expect(tx.delegationFeePercent).toBe(v.delegationFee);
      expect(v.blsCredentials).toEqual(tx.blsCredentials);
      const delegators = txs['p-chain'].filter((t) => (t.txType === 'AddDelegatorTx' || t.txType === 'AddPermissionlessDelegatorTx') && t.nodeId === v.nodeId && t.startTimestamp! >= v.startTimestamp && t.endTimestamp! <= v.endTimestamp);
      if (v.validationStatus === 'active' || v.validationStatus === 'completed') {
        expect(v.delegatorCount).toBe(delegators.length);
        expect(BigInt(v.amountDelegated!)).toBe(delegators.reduce((s, d) => s + BigInt(d.amountStaked[0].amount), 0n));
      } else {
        // The public shape of a pending (or removed) validation has the common fields only.
        expect(v.delegatorCount).toBeUndefined();
        expect(v.amountDelegated).toBeUndefined();
      }
      if (v.validationStatus === 'completed') {
        expect(v.rewards!.rewardTxHash).toBe(tx.rewardTxHash);
        expect(v.rewards!.validationRewardAmount).toBe(tx.estimatedReward);
        expect(byHash.get(tx.rewardTxHash!)!.stakingTxHash).toBe(tx.txHash);
      }
    }
    expect(statuses).toEqual(new Set(['active', 'completed', 'removed', 'pending']));
    const withBls = primary.filter((v) => v.blsCredentials).slice(0, 2);
    expect(withBls.length).toBeGreaterThan(0);
    for (const v of withBls) expect(verifyProofOfPossession(v.blsCredentials!)).toBe(true);
  });

  it('historical rewards are the reward UTXOs of completed validations and delegations', async () => {
    const rewardTxs = txs['p-chain'].filter((t) => t.txType === 'RewardValidatorTx');
    expect(rewardTxs.length).toBeGreaterThan(5);
    type H = { txHash: string; nodeId: string; rewardType: string; utxoId: string; reward: { amount: string }; rewardTxHash: string; amountStaked: string; addresses: string[] };
    const nodes = [...new Set(rewardTxs.map((t) => t.nodeId!))];
    const listed = new Map<string, H>();
    for (let i = 0; i < nodes.length; i += 10) for (const h of await truth<H>(`${N}/rewards`, { nodeIds: nodes.slice(i, i + 10).join(',') })) listed.set(h.utxoId, h);
    let n = 0;
    for (const rt of rewardTxs) {
      const staking = byHash.get(rt.stakingTxHash!)!;
      expect(staking.rewardTxHash).toBe(rt.txHash);
      for (const u of rt.emittedUtxos.filter((x) => x.rewardType)) {
        const h = listed.get(u.utxoId)!;
        expect(h).toBeDefined();
        expect(h.rewardTxHash).toBe(rt.txHash);
        expect(h.txHash).toBe(staking.txHash);
        expect(h.reward.amount).toBe(u.amount);
        expect(h.addresses).toEqual(u.addresses);
        expect(h.amountStaked).toBe(staking.amountStaked[0].amount);
        if (u.rewardType !== 'VALIDATOR_FEE') expect(u.amount).toBe(staking.estimatedReward);
        n++;
      }
    }
    expect(listed.size).toBe(n);
    // By address: the reward outputs owned by the address.
    const a = pn.addresses[0];
    const mine = await truth<H>(`${N}/rewards`, { addresses: a });
    expect(mine.map((h) => h.utxoId).sort()).toEqual([...listed.values()].filter((h) => h.addresses.includes(a)).map((h) => h.utxoId).sort());
  });

  it('pending rewards are the active (and pending) stakes with their estimated reward and progress', async () => {
    const active = validators.filter((v) => v.subnetId === pn.chainIds['p-chain'] && (v.validationStatus === 'active' || v.validationStatus === 'pending'));
    expect(active.length).toBeGreaterThan(0);
    type P = { txHash: string; rewardType: string; progress: number; estimatedReward: { amount: string }; startTimestamp: number; endTimestamp: number };
    const pending = await truth<P>(`${N}/rewards:listPending`, { nodeIds: active.map((v) => v.nodeId).join(',') });
    for (const v of active) {
      const p = pending.find((x) => x.txHash === v.txHash && x.rewardType === 'VALIDATOR')!;
      expect(p).toBeDefined();
      expect(p.estimatedReward.amount).toBe(byHash.get(v.txHash)!.estimatedReward);
      expect(p.progress).toBeCloseTo(Math.max(0, (pn.headTimestamp - v.startTimestamp) / (v.endTimestamp - v.startTimestamp)), 9);
    }
    for (const p of pending) expect(byHash.get(p.txHash)!.rewardTxHash).toBeUndefined();
  });
});

describe('vertices', () => {
  it('list every non-linear X-chain transaction once (the linear ones are in blocks); heights, indexes and parents are consistent', async () => {
    type X = { vertexHash: string; parentHashes: string[]; vertexHeight: number; vertexIndex: number; txCount: number; transactions: string[] };
    const { items } = await walk(sim.baseUrl, `${N}/blockchains/x-chain/vertices`, 'vertices', { pageSize: 100 });
    const vs = (items as X[]).reverse();
    vs.forEach((v, i) => {
      expect(v.vertexIndex).toBe(i);
      expect(v.txCount).toBe(v.transactions.length);
      if (i > 0) expect(v.vertexHeight - vs[i - 1].vertexHeight).toBeGreaterThanOrEqual(0);
      const previous = vs.filter((p) => p.vertexHeight === v.vertexHeight - 1).map((p) => p.vertexHash);
      expect(v.parentHashes).toEqual(previous);
    });
    const nonLinear = txs['x-chain'].filter((t) => t.chainFormat === 'non-linear');
    expect(nonLinear.length).toBeGreaterThan(0);
    expect(txs['x-chain'].length).toBeGreaterThan(nonLinear.length);
    // The DAG is the X-chain's history up to linearization: every non-linear transaction comes first.
    expect(txs['x-chain'].slice(0, nonLinear.length)).toEqual(nonLinear);
    expect(vs.flatMap((v) => v.transactions)).toEqual(nonLinear.map((t) => t.txHash));
    for (const t of nonLinear) {
      const vertices = (t as T & { vertices: { hash: string; height: number }[] }).vertices;
      expect(vertices.map((v) => [v.hash, v.height])).toEqual(vs.filter((v) => v.transactions.includes(t.txHash)).map((v) => [v.vertexHash, v.vertexHeight]));
    }
    const h = vs.find((v, i) => i > 0 && vs[i - 1].vertexHeight === v.vertexHeight)!.vertexHeight;
    const atHeight = await truth<X>(`${N}/blockchains/x-chain/vertices:listByHeight`, { vertexHeight: String(h) });
    expect(atHeight.map((v) => v.vertexHash)).toEqual(vs.filter((v) => v.vertexHeight === h).map((v) => v.vertexHash));
  });
});

describe('determinism and growth', () => {
  it('the same seed gives the same world; another seed another', () => {
    const a = new PrimaryWorld(5, WORLD_SIZES.tiny).network('fuji');
    const b = new PrimaryWorld(5, WORLD_SIZES.tiny).network('fuji');
    const c = new PrimaryWorld(6, WORLD_SIZES.tiny).network('fuji');
    // Hashes, types, times and outputs (not whole objects: that would compute every BLS key).
    const fingerprint = (w: typeof a) => (['p-chain', 'x-chain', 'c-chain'] as const).flatMap((c) => w.ledger.txs[c].map((r) => [r.tx.txHash, r.tx.txType, r.tx.blockTimestamp, r.tx.emittedUtxos.map((u) => `${u.utxoId}:${u.amount}`)]));
    expect(fingerprint(b)).toEqual(fingerprint(a));
    expect(b.describe()).toEqual(a.describe());
    expect(c.ledger.txs['p-chain'][5].tx.txHash).not.toBe(a.ledger.txs['p-chain'][5].tx.txHash);
  });

  it('advance appends transactions and UTXOs (X-chain ones linear, the DAG unchanged); a descending walk in progress neither skips nor repeats', async () => {
    const path = `${N}/blockchains/p-chain/transactions`;
    const before = await truth<T>(path);
    const first = await getJson(`${sim.baseUrl}${path}?pageSize=5`);
    const token = first.body.nextPageToken as string;
    const verticesBefore = (await truth<unknown>(`${N}/blockchains/x-chain/vertices`)).length;
    const xBefore = (await truth<T>(`${N}/blockchains/x-chain/transactions`)).length;
    sim.advance(30);
    const rest = await walk(sim.baseUrl, path, 'transactions', { pageSize: 5 }, {}, token);
    const walked = [...(first.body.transactions as T[]), ...(rest.items as T[])].map((t) => t.txHash);
    expect(walked).toEqual(before.map((t) => t.txHash));
    const after = await truth<T>(path);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.slice(after.length - before.length).map((t) => t.txHash)).toEqual(before.map((t) => t.txHash));
    expect((await truth<unknown>(`${N}/blockchains/x-chain/vertices`)).length).toBe(verticesBefore);
    const xAfter = await truth<T>(`${N}/blockchains/x-chain/transactions`);
    expect(xAfter.length).toBeGreaterThan(xBefore);
    expect(new Set(xAfter.slice(0, xAfter.length - xBefore).map((t) => t.chainFormat))).toEqual(new Set(['linear']));
    // New transactions' outputs are listed like the old ones'.
    const fresh = after.slice(0, after.length - before.length).find((t) => t.emittedUtxos.length > 0)!;
    const u = canonUtxo(fresh.emittedUtxos[0] as unknown as Raw);
    const listed = await truth<Raw>(`${N}/blockchains/${chainOfId(u.consumedOnChainId)}/utxos`, { addresses: u.addresses[0], includeSpent: 'true' });
    expect(common(canonUtxo(listed.find((x) => x.utxoId === u.utxoId)!))).toEqual(common(u));
  });
});
