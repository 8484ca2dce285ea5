import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { derive, toHex } from './ids.ts';
import type { BlsCredentials } from './types.ts';

/**
 * Validator BLS keys, as Avalanche uses them: public keys in G1 (48 bytes compressed), signatures in
 * G2 (96 bytes), proof-of-possession ciphersuite for the PoP. Keys are numbered: key i has a secret
 * derived from i, so worlds share keys and the credentials (public key + PoP, costly to compute)
 * come from a precomputed table (simulator/primary/generateBlsTable.ts); outside the table they are computed.
 */
const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const sigs = bls12_381.longSignatures;
const CURVE_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

export const BLS_TABLE_SIZE = 2048;
export const BLS_TABLE_PATH = fileURLToPath(new URL('./blsTable.bin', import.meta.url));
let table: Buffer | null | undefined;
const KEYS = new Map<number, BlsKey>();

function tableEntry(index: number): { publicKey: Uint8Array; proofOfPossession: Uint8Array } | undefined {
  if (table === undefined) table = existsSync(BLS_TABLE_PATH) ? readFileSync(BLS_TABLE_PATH) : null;
  if (!table || (index + 1) * 144 > table.length) return undefined;
  return { publicKey: table.subarray(index * 144, index * 144 + 48), proofOfPossession: table.subarray(index * 144 + 48, (index + 1) * 144) };
}

export class BlsKey {
  private cachedPublicKey?: Uint8Array;
  private cachedCredentials?: BlsCredentials;

  private constructor(
    readonly index: number,
    readonly secretKey: Uint8Array,
  ) {}

  /** Key number `index` (one object per index and process). */
  static ofIndex(index: number): BlsKey {
    let key = KEYS.get(index);
    if (!key) KEYS.set(index, (key = new BlsKey(index, BlsKey.secretForIndex(index))));
    return key;
  }

  /** Secret scalar from 48 index-derived bytes reduced into [1, r), as key generation does. */
  static secretForIndex(index: number): Uint8Array {
    const wide = BigInt(toHex(derive(`bls:key:${index}`, 48)));
    const scalar = (wide % (CURVE_ORDER - 1n)) + 1n;
    return Uint8Array.from(Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex'));
  }

  static computeCredentials(secretKey: Uint8Array): { publicKey: Uint8Array; proofOfPossession: Uint8Array } {
    const publicKey = sigs.getPublicKey(secretKey).toBytes(true);
    const proofOfPossession = sigs.sign(sigs.hash(publicKey, POP_DST), secretKey).toBytes(true);
    return { publicKey, proofOfPossession };
  }

  get publicKey(): Uint8Array {
    this.cachedPublicKey ??= tableEntry(this.index)?.publicKey ?? sigs.getPublicKey(this.secretKey).toBytes(true);
    return this.cachedPublicKey;
  }

  get credentials(): BlsCredentials {
    if (!this.cachedCredentials) {
      const entry = tableEntry(this.index) ?? BlsKey.computeCredentials(this.secretKey);
      this.cachedPublicKey = entry.publicKey;
      this.cachedCredentials = { publicKey: toHex(entry.publicKey), proofOfPossession: toHex(entry.proofOfPossession) };
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
