import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLS_TABLE_PATH, BLS_TABLE_SIZE, BlsKey, aggregateSignatures, verifyAggregate, verifyProofOfPossession } from './blsKeys.ts';

describe('BLS keys', () => {
  it('the precomputed table holds the real public key and a valid proof of possession of each key index', () => {
    expect(existsSync(BLS_TABLE_PATH)).toBe(true);
    expect(readFileSync(BLS_TABLE_PATH).length).toBe(BLS_TABLE_SIZE * 144);
    for (const i of [0, 1, 777, BLS_TABLE_SIZE - 1]) {
      const fromTable = BlsKey.ofIndex(i).credentials;
      const computed = BlsKey.computeCredentials(BlsKey.secretForIndex(i));
      expect(fromTable.publicKey).toBe(`0x${Buffer.from(computed.publicKey).toString('hex')}`);
      expect(verifyProofOfPossession(fromTable)).toBe(true);
    }
  });

  it('keys beyond the table are computed, and aggregate signatures verify only for the signers and the message', () => {
    const keys = [BlsKey.ofIndex(BLS_TABLE_SIZE + 3), BlsKey.ofIndex(5), BlsKey.ofIndex(9)];
    expect(verifyProofOfPossession(keys[0].credentials)).toBe(true);
    const message = new TextEncoder().encode('warp');
    const signature = aggregateSignatures(keys.map((k) => k.sign(message)));
    expect(verifyAggregate(signature, message, keys.map((k) => k.publicKey))).toBe(true);
    expect(verifyAggregate(signature, message, keys.slice(1).map((k) => k.publicKey))).toBe(false);
    expect(verifyAggregate(signature, new TextEncoder().encode('other'), keys.map((k) => k.publicKey))).toBe(false);
  });
});
