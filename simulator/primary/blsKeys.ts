import { bls12_381 } from '@noble/curves/bls12-381.js';
import { derive, toHex } from './ids.ts';
import type { BlsCredentials } from './types.ts';

/**
 * Validator BLS keys, as Avalanche uses them: public keys in G1 (48 bytes compressed), signatures in
 * G2 (96 bytes), proof-of-possession ciphersuite for the PoP. Keys derive from a label, so the same
 * seed gives the same keys; curve work is done on first use because it costs milliseconds per key.
 */
const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const sigs = bls12_381.longSignatures;
const KEYS = new Map<string, BlsKey>();
const CURVE_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

export class BlsKey {
  private cachedPublicKey?: Uint8Array;
  private cachedCredentials?: BlsCredentials;

  constructor(readonly secretKey: Uint8Array) {}

  /** Secret scalar from 48 label-derived bytes reduced into [1, r) (as key generation does, minus the curve work). */
  static fromLabel(label: string): BlsKey {
    // One key object per label and process: its public key and proof of possession are computed once
    // even when several worlds of the same seed exist (tests start many simulators).
    let key = KEYS.get(label);
    if (!key) KEYS.set(label, (key = BlsKey.derive(label)));
    return key;
  }

  private static derive(label: string): BlsKey {
    const wide = BigInt(toHex(derive(`bls:${label}`, 48)));
    const scalar = (wide % (CURVE_ORDER - 1n)) + 1n;
    return new BlsKey(Uint8Array.from(Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex')));
  }

  get publicKey(): Uint8Array {
    this.cachedPublicKey ??= sigs.getPublicKey(this.secretKey).toBytes(true);
    return this.cachedPublicKey;
  }

  get credentials(): BlsCredentials {
    if (!this.cachedCredentials) {
      const pop = sigs.sign(sigs.hash(this.publicKey, POP_DST), this.secretKey);
      this.cachedCredentials = { publicKey: toHex(this.publicKey), proofOfPossession: toHex(pop.toBytes(true)) };
    }
    return this.cachedCredentials;
  }

  sign(message: Uint8Array): Uint8Array {
    return sigs.sign(sigs.hash(message, SIG_DST), this.secretKey).toBytes(true);
  }
}

export function aggregateSignatures(signatures: Uint8Array[]): Uint8Array {
  return sigs.aggregateSignatures(signatures).toBytes(true);
}

export function verifyAggregate(signature: Uint8Array, message: Uint8Array, publicKeys: Uint8Array[]): boolean {
  const aggregateKey = sigs.aggregatePublicKeys(publicKeys);
  return sigs.verify(signature, sigs.hash(message, SIG_DST), aggregateKey);
}

export function verifyProofOfPossession(credentials: BlsCredentials): boolean {
  const pk = Uint8Array.from(Buffer.from(credentials.publicKey.slice(2), 'hex'));
  const pop = Uint8Array.from(Buffer.from(credentials.proofOfPossession.slice(2), 'hex'));
  return sigs.verify(pop, sigs.hash(pk, POP_DST), pk);
}
