import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, WORLD_SIZES } from '../index.ts';
import type { Simulator } from '../index.ts';
import { WORLD_TIP_TIME } from '../world/size.ts';

/**
 * Day-scale clocks (size.stepsPerDay, the nights benchmark): a world grows one day of activity on
 * every chain per `advance {days: 1}`, and its history is a number of whole days ending at the
 * same time on the EVM chains and the primary network.
 */

const DAY = 86_400;
const STEPS_PER_DAY = 24;
const size = { ...WORLD_SIZES.tiny, stepsPerDay: STEPS_PER_DAY, evmBlocks: 5 * STEPS_PER_DAY, pnTxsPerChain: Math.round(1.2 * 5 * STEPS_PER_DAY) };

interface Block { blockNumber: string; blockTimestamp: number }
/** P-chain transactions carry blockTimestamp, X-chain ones timestamp. */
interface PnTx { txHash: string; blockTimestamp?: number; timestamp?: number }
const at = (t: PnTx): number => t.blockTimestamp ?? t.timestamp!;
interface Validator { nodeId: string; validationStatus: string }

let sim: Simulator;
const truth = async <T>(path: string, query: Record<string, string> = {}) => (await sim.groundTruth('GET', path, query)) as T[];
const advanceDays = (days: unknown) => fetch(`${sim.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ days }) });
const pTxs = '/v1/networks/mainnet/blockchains/p-chain/transactions';
const xTxs = '/v1/networks/mainnet/blockchains/x-chain/transactions';

beforeAll(async () => {
  sim = await startSimulator({ seed: 31, size });
});
afterAll(async () => {
  await sim.close();
});

describe('day-scale clocks', () => {
  it('the history is whole days ending at the same tip time on every EVM chain and the primary network', async () => {
    for (const chainId of ['43114', '43113', '779672', '99871']) {
      const blocks = await truth<Block>(`/v1/chains/${chainId}/blocks`);
      const [tip, below] = blocks;
      // One block per step, a step is an hour: consecutive blocks are 3,600 s (+/- the 1 s jitter) apart.
      expect(Math.abs(tip.blockTimestamp - below.blockTimestamp - DAY / STEPS_PER_DAY)).toBeLessThanOrEqual(1);
      expect(Math.abs(tip.blockTimestamp - WORLD_TIP_TIME)).toBeLessThanOrEqual(DAY / STEPS_PER_DAY + 1);
    }
    const cBlocks = await truth<Block>('/v1/chains/43114/blocks');
    expect(cBlocks[0].blockTimestamp - cBlocks.at(-1)!.blockTimestamp).toBeGreaterThan(4 * DAY);
    const p = await truth<PnTx>(pTxs);
    const head = Math.max(...p.map(at));
    expect(Math.abs(head - WORLD_TIP_TIME)).toBeLessThan(DAY / STEPS_PER_DAY);
    // The default clocks would put a tiny world's primary history 30 days long and two years earlier.
    expect(head - Math.min(...p.map(at))).toBeLessThan(6 * DAY);
  });

  it('advance {days: 1} adds one day of blocks, transactions and validator changes on every chain', async () => {
    const before = {
      blocks: await truth<Block>('/v1/chains/43114/blocks'),
      rime: await truth<Block>('/v1/chains/99871/blocks'),
      p: await truth<PnTx>(pTxs),
      x: await truth<PnTx>(xTxs),
      validators: await truth<Validator>('/v1/networks/mainnet/validators'),
    };
    const res = await advanceDays(1);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { steps: number }).steps).toBe(STEPS_PER_DAY);
    const blocks = await truth<Block>('/v1/chains/43114/blocks');
    const rime = await truth<Block>('/v1/chains/99871/blocks');
    expect(blocks.length - before.blocks.length).toBe(STEPS_PER_DAY);
    expect(rime.length - before.rime.length).toBe(STEPS_PER_DAY);
    // The new blocks fill the next day, and the old ones are unchanged.
    expect(Math.abs(blocks[0].blockTimestamp - before.blocks[0].blockTimestamp - DAY)).toBeLessThanOrEqual(1);
    expect(blocks.slice(STEPS_PER_DAY)).toEqual(before.blocks);
    for (const [chain, list, old] of [['p', await truth<PnTx>(pTxs), before.p], ['x', await truth<PnTx>(xTxs), before.x]] as const) {
      const known = new Set(old.map((t) => t.txHash));
      const added = list.filter((t) => !known.has(t.txHash));
      const oldHead = Math.max(...old.map(at));
      expect(added.length, chain).toBeGreaterThan(0);
      for (const t of added) {
        expect(at(t), chain).toBeGreaterThan(oldHead);
        expect(at(t), chain).toBeLessThanOrEqual(oldHead + DAY + DAY / STEPS_PER_DAY);
      }
    }
    const validators = await truth<Validator>('/v1/networks/mainnet/validators');
    expect(JSON.stringify(validators)).not.toBe(JSON.stringify(before.validators));
  });

  it('a day is stepsPerDay steps: the same seed grown by days or by steps serves the same world', async () => {
    const other = await startSimulator({ seed: 31, size });
    try {
      other.advance(STEPS_PER_DAY); // sim is one day in (the test above)
      for (const path of ['/v1/chains/43114/blocks', pTxs, '/v1/networks/mainnet/validators']) {
        expect(await other.groundTruth('GET', path, {}), path).toEqual(await sim.groundTruth('GET', path, {}));
      }
    } finally {
      await other.close();
    }
  });

  it('refuses days on a world without stepsPerDay, and a stepsPerDay that is not a whole divisor of a day', async () => {
    const plain = await startSimulator({ seed: 31, size: 'tiny' });
    try {
      const res = await fetch(`${plain.baseUrl}/admin/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ days: 1 }) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/stepsPerDay/);
    } finally {
      await plain.close();
    }
    expect((await advanceDays(-1)).status).toBe(400);
    await expect(startSimulator({ size: { ...size, stepsPerDay: 7 } })).rejects.toThrow(/stepsPerDay/);
  });
});
