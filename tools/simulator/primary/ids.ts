import { base58, bech32 } from '@scure/base';
import { hash } from 'node:crypto';

// Node's one-shot native sha256: generating a large world hashes hundreds of thousands of ids.
const sha256 = (data: Uint8Array | string): Uint8Array => hash('sha256', data, 'buffer');

/**
 * Avalanche identifier codecs. cb58 is base58 of the bytes followed by the last four bytes of their
 * sha256 (a checksum); P/X addresses are bech32 with a network hrp and a 20-byte payload.
 */

export function cb58Encode(bytes: Uint8Array): string {
  const checksum = sha256(bytes).subarray(-4);
  const out = new Uint8Array(bytes.length + 4);
  out.set(bytes);
  out.set(checksum, bytes.length);
  return base58.encode(out);
}

/** Decodes cb58 and checks the checksum; returns undefined for anything that is not valid cb58. */
export function cb58Decode(text: string): Uint8Array | undefined {
  let raw: Uint8Array;
  try {
    raw = base58.decode(text);
  } catch {
    return undefined;
  }
  if (raw.length < 5) return undefined;
  const body = raw.subarray(0, -4);
  const expected = sha256(body).subarray(-4);
  for (let i = 0; i < 4; i++) if (raw[raw.length - 4 + i] !== expected[i]) return undefined;
  return Uint8Array.from(body);
}

/** Deterministic bytes for a label: the basis of every synthetic id, so ids depend only on the seed. */
export function derive(label: string, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  for (let block = 0, filled = 0; filled < length; block++) {
    const digest = sha256(`${label}#${block}`);
    out.set(digest.subarray(0, Math.min(32, length - filled)), filled);
    filled += 32;
  }
  return out;
}

export const deriveId = (label: string): string => cb58Encode(derive(label, 32));

export function nodeIdFromBytes(bytes20: Uint8Array): string {
  return `NodeID-${cb58Encode(bytes20)}`;
}

export function encodeAddress(hrp: string, payload20: Uint8Array): string {
  return bech32.encode(hrp, bech32.toWords(payload20));
}

/**
 * Parses a query address: bare `avax1…`, or with a `P-`/`X-`/`C-` chain prefix. Returns the bare
 * form, or undefined when it is not a valid bech32 address of this network's hrp.
 */
export function normalizeAddress(input: string, hrp: string): string | undefined {
  const bare = /^[PXC]-/i.test(input) ? input.slice(2) : input;
  try {
    const decoded = bech32.decode(bare as `${string}1${string}`);
    if (decoded.prefix !== hrp) return undefined;
    if (bech32.fromWords(decoded.words).length !== 20) return undefined;
    return bare.toLowerCase();
  } catch {
    return undefined;
  }
}

export const toHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

/** Hex with an optional 0x prefix, even length; undefined when not hex. */
export function parseHex(text: string): Uint8Array | undefined {
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) return undefined;
  return Uint8Array.from(Buffer.from(body, 'hex'));
}
