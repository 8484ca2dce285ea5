import { createHash } from 'node:crypto';

/** Identifier encodings of the primary network (cb58, bech32) and EVM (0x hex). */

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_INDEX = new Map([...B58].map((c, i) => [c, i]));

export function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

export function base58Decode(s: string): Uint8Array | null {
  let n = 0n;
  for (const c of s) {
    const v = B58_INDEX.get(c);
    if (v === undefined) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const c of s) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest();
}

/** cb58 = base58(payload ++ last 4 bytes of sha256(payload)). */
export function cb58Encode(payload: Uint8Array): string {
  const check = sha256(payload).subarray(28);
  const all = new Uint8Array(payload.length + 4);
  all.set(payload);
  all.set(check, payload.length);
  return base58Encode(all);
}

/** The payload of a valid cb58 string, or null when the checksum or alphabet is wrong. */
export function cb58Decode(s: string): Uint8Array | null {
  const all = base58Decode(s);
  if (!all || all.length < 5) return null;
  const payload = all.subarray(0, all.length - 4);
  const check = sha256(payload).subarray(28);
  for (let i = 0; i < 4; i++) if (check[i] !== all[all.length - 4 + i]) return null;
  return payload;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_INDEX = new Map([...BECH32].map((c, i) => [c, i]));
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i];
  }
  return chk;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (const c of hrp) out.push(c.charCodeAt(0) >>> 5);
  out.push(0);
  for (const c of hrp) out.push(c.charCodeAt(0) & 31);
  return out;
}

function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | data[i];
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return null;
  }
  return out;
}

/** bech32 (BIP-173) address, e.g. hrp `avax` + 20 bytes -> `avax1...`. */
export function bech32Encode(hrp: string, payload: Uint8Array): string {
  const data = convertBits(payload, 8, 5, true)!;
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  let out = hrp + '1';
  for (const d of data) out += BECH32[d];
  for (let i = 0; i < 6; i++) out += BECH32[(mod >>> (5 * (5 - i))) & 31];
  return out;
}

/** Decodes a lower-case bech32 string; null when malformed or the checksum fails. */
export function bech32Decode(s: string): { hrp: string; payload: Uint8Array } | null {
  const sep = s.lastIndexOf('1');
  if (sep < 1 || sep + 7 > s.length || s !== s.toLowerCase()) return null;
  const hrp = s.slice(0, sep);
  const data: number[] = [];
  for (const c of s.slice(sep + 1)) {
    const v = BECH32_INDEX.get(c);
    if (v === undefined) return null;
    data.push(v);
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) return null;
  const bytes = convertBits(data.slice(0, -6), 5, 8, false);
  return bytes ? { hrp, payload: Uint8Array.from(bytes) } : null;
}
