import { bls12_381 } from '@noble/curves/bls12-381.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../index.ts';
import type { Simulator } from '../index.ts';
import { cb58Decode } from '../primary/ids.ts';

/**
 * Signature aggregation: the signed message is verified here with the BLS12-381 pairing against
 * the validator keys published by the P-chain transactions (not the simulator's internals).
 */

const sigs = bls12_381.longSignatures;
const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const N = '/v1/networks/mainnet';
const PATH = '/v1/signatureAggregator/mainnet/aggregateSignatures';

interface Detail { validationId: string; nodeId: string; subnetId: string; weight: number; blsCredentials: { publicKey: string } }
interface T { txType: string; blockNumber: string; subnetId?: string; l1ValidatorDetails?: Detail[]; l1ValidatorManagerDetails?: { blockchainId: string } }

let sim: Simulator;
let pTxs: T[];
let l1s: { subnetId: string; chainId: string; convertHeight: number }[];
let l1: { subnetId: string; chainId: string; convertHeight: number };

beforeAll(async () => {
  sim = await startSimulator({ seed: 44, size: 'tiny' });
  pTxs = (await sim.groundTruth('GET', `${N}/blockchains/p-chain/transactions`, { sortOrder: 'asc' })) as T[];
  l1s = pTxs
    .filter((t) => t.txType === 'ConvertSubnetToL1Tx')
    .map((t) => ({ subnetId: t.subnetId!, chainId: t.l1ValidatorManagerDetails!.blockchainId, convertHeight: Number(t.blockNumber) }));
});
afterAll(async () => {
  await sim.close();
});

/** The L1's validator set at a P-chain height, rebuilt from its transactions, in canonical (public key) order. */
function l1Set(subnetId: string, height: number): { publicKey: string; weight: bigint }[] {
  const byId = new Map<string, { publicKey: string; weight: bigint; live: boolean }>();
  for (const t of pTxs) {
    if (Number(t.blockNumber) > height || t.subnetId !== subnetId || !t.l1ValidatorDetails) continue;
    for (const d of t.l1ValidatorDetails) {
      byId.set(d.validationId, { publicKey: d.blsCredentials.publicKey, weight: BigInt(d.weight), live: t.txType !== 'DisableL1ValidatorTx' && (byId.get(d.validationId)?.live ?? true) });
    }
  }
  return [...byId.values()].filter((v) => v.live).sort((a, b) => (a.publicKey < b.publicKey ? -1 : 1));
}

/** A Warp unsigned message: codec 0, network id 1, source chain id, length-prefixed payload. */
function warpMessage(sourceChainId: string, payload: string): string {
  const chain = Buffer.from(cb58Decode(sourceChainId)!);
  const head = Buffer.alloc(6);
  head.writeUInt32BE(1, 2);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(Buffer.byteLength(payload));
  return Buffer.concat([head, chain, len, Buffer.from(payload)]).toString('hex');
}

async function aggregate(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(sim.baseUrl + PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Splits the documented format and checks the aggregate signature; returns the signing weight share. */
function verify(signedHex: string, messageHex: string, set: { publicKey: string; weight: bigint }[]): number {
  const buf = Buffer.from(signedHex.replace(/^0x/, ''), 'hex');
  const msg = Buffer.from(messageHex.replace(/^0x/, ''), 'hex');
  expect(buf.subarray(0, msg.length).equals(msg)).toBe(true);
  expect(buf.readUInt32BE(msg.length)).toBe(0);
  const bitsLen = buf.readUInt32BE(msg.length + 4);
  const bits = BigInt(`0x${buf.subarray(msg.length + 8, msg.length + 8 + bitsLen).toString('hex') || '0'}`);
  const signature = buf.subarray(msg.length + 8 + bitsLen);
  expect(signature.length).toBe(96);
  const signers = set.filter((_, i) => (bits >> BigInt(i)) & 1n);
  expect(bits >> BigInt(set.length)).toBe(0n);
  const aggregateKey = sigs.aggregatePublicKeys(signers.map((s) => Buffer.from(s.publicKey.slice(2), 'hex')));
  expect(sigs.verify(signature, sigs.hash(msg, DST), aggregateKey)).toBe(true);
  // A different message does not verify: the check can fail.
  expect(sigs.verify(signature, sigs.hash(Buffer.concat([msg, Buffer.from([1])]), DST), aggregateKey)).toBe(false);
  const total = set.reduce((s, v) => s + v.weight, 0n);
  return Number((signers.reduce((s, v) => s + v.weight, 0n) * 10_000n) / total) / 100;
}

describe('aggregateSignatures', () => {
  it('signs a Warp message of an L1 chain with its validators (subnet from the source chain) and verifies', async () => {
    const height = Number(pTxs[pTxs.length - 1].blockNumber);
    const signed: typeof l1s = [];
    for (const candidate of l1s) {
      const message = warpMessage(candidate.chainId, 'hello');
      const res = await aggregate({ message: `0x${message}` });
      // An L1 whose offline validators hold too much weight cannot sign: that is a 503, never a bad signature.
      if (res.status === 503) continue;
      expect(res.status).toBe(200);
      expect(verify(res.body.signedMessage as string, message, l1Set(candidate.subnetId, height))).toBeGreaterThanOrEqual(67);
      signed.push(candidate);
    }
    expect(signed.length).toBeGreaterThan(0);
    l1 = signed[0];
  });

  it('uses the validator set at pChainHeight, and a hex signingSubnetId equals the cb58 one', async () => {
    const message = warpMessage(l1.chainId, 'at height');
    const hexSubnet = `0x${Buffer.from(cb58Decode(l1.subnetId)!).toString('hex')}`;
    const res = await aggregate({ message, signingSubnetId: hexSubnet, pChainHeight: l1.convertHeight, quorumPercentage: 50, quorumPercentageBuffer: 10 });
    expect(res.status).toBe(200);
    expect(verify(res.body.signedMessage as string, message, l1Set(l1.subnetId, l1.convertHeight))).toBeGreaterThanOrEqual(50);
    const cb = await aggregate({ message, signingSubnetId: l1.subnetId, pChainHeight: l1.convertHeight, quorumPercentage: 50, quorumPercentageBuffer: 10 });
    expect(cb.body).toEqual(res.body);
  });

  it('signs a justification when no message is given', async () => {
    const res = await aggregate({ justification: 'abcdef', signingSubnetId: l1.subnetId });
    expect(res.status).toBe(200);
    verify(res.body.signedMessage as string, 'abcdef', l1Set(l1.subnetId, Number(pTxs[pTxs.length - 1].blockNumber)));
  });

  it('answers 503 when reachable validators cannot meet the quorum (offline and keyless validators)', async () => {
    const res = await aggregate({ message: 'aa', signingSubnetId: pTxs[0].subnetId ?? '11111111111111111111111111111111LpoYY', quorumPercentage: 100 });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(String(res.body.message)).toContain('insufficient signing weight');
  });

  it('validates every field with a 400 naming it', async () => {
    const cases: [unknown, string][] = [
      [{}, 'message or justification'],
      [{ message: 'xyz' }, 'message'],
      [{ message: '0x123' }, 'message'],
      [{ justification: 12 }, 'justification'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, quorumPercentage: 101 }, 'quorumPercentage'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, quorumPercentage: -1 }, 'quorumPercentage'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, quorumPercentage: 66.5 }, 'quorumPercentage'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, quorumPercentageBuffer: 101 }, 'quorumPercentageBuffer'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, quorumPercentage: 60, quorumPercentageBuffer: 41 }, 'quorumPercentage + quorumPercentageBuffer'],
      [{ message: 'aa', signingSubnetId: 'not-an-id' }, 'signingSubnetId'],
      [{ message: 'aa', signingSubnetId: l1.chainId.slice(0, -1) + (l1.chainId.endsWith('a') ? 'b' : 'a') }, 'signingSubnetId'],
      [{ message: 'aa', signingSubnetId: `0x${'11'.repeat(32)}` }, 'signingSubnetId'],
      [{ message: 'aa' }, 'signingSubnetId'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, pChainHeight: -1 }, 'pChainHeight'],
      [{ message: 'aa', signingSubnetId: l1.subnetId, pChainHeight: 10_000_000 }, 'pChainHeight'],
    ];
    for (const [body, name] of cases) {
      const res = await aggregate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('Bad Request');
      expect(String(res.body.message)).toContain(name);
    }
  });
});
