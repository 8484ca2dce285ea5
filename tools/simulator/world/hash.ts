import { spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';

/**
 * Deterministic, allocation-free hashing: every synthetic value is a pure function of
 * (seed, domain, index...), so any item of a 10M-block world is computed on demand in O(1).
 */

/** 32-bit finalizer (murmur3 fmix32): good avalanche, a few integer ops. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a few integers (each may be up to 2^53) into an unsigned 32-bit value (murmur3-style). */
export function hash32(...parts: number[]): number {
  return hashParts(parts);
}

/** hash32 of an array of parts (unit and intIn pass their rest array on without respreading it). */
function hashParts(parts: number[]): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    h = mixIn(h, p >>> 0);
    // The high word only matters for values >= 2^32, which are rare: skip it otherwise.
    if (p >= 4294967296) h = mixIn(h, Math.floor(p / 4294967296) >>> 0);
  }
  return fmix32((h ^ parts.length) >>> 0);
}

/** hash32(a, b, c) without the rest array (hot paths). */
export function hash3(a: number, b: number, c: number): number {
  let h = mixPart(0x9e3779b9, a);
  h = mixPart(h, b);
  h = mixPart(h, c);
  return fmix32((h ^ 3) >>> 0);
}

/** hash32(a, b, c, d) without the rest array (hot paths). */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = mixPart(0x9e3779b9, a);
  h = mixPart(h, b);
  h = mixPart(h, c);
  h = mixPart(h, d);
  return fmix32((h ^ 4) >>> 0);
}

/** One part of hashParts: its low word, and its high word when it has one. */
function mixPart(h: number, p: number): number {
  h = mixIn(h, p >>> 0);
  return p >= 4294967296 ? mixIn(h, Math.floor(p / 4294967296) >>> 0) : h;
}

/** intIn(lo, hi, a, b, c, d) without the rest array (hot paths). */
export function intIn4(lo: number, hi: number, a: number, b: number, c: number, d: number): number {
  return lo + Math.floor((hash4(a, b, c, d) / 4294967296) * (hi - lo + 1));
}

function mixIn(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** Uniform float in [0, 1). */
export function unit(...parts: number[]): number {
  return hashParts(parts) / 4294967296;
}

/** Uniform integer in [lo, hi] (inclusive). */
export function intIn(lo: number, hi: number, ...parts: number[]): number {
  return lo + Math.floor((hashParts(parts) / 4294967296) * (hi - lo + 1));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 8 lower-case hex chars of a 32-bit word, big-endian (reads like toString(16) padded). */
export function hex32(w: number): string {
  return HEX[w >>> 24] + HEX[(w >>> 16) & 0xff] + HEX[(w >>> 8) & 0xff] + HEX[w & 0xff];
}

/**
 * `bytes` pseudo-random bytes as lower-case hex (no prefix). The parts are hashed once; each
 * further word is one finalizer step (bytes little-endian), which keeps ids (32-byte hashes)
 * cheap on hot paths. The digits go through a scratch buffer: one flat string, no concatenations.
 */
export function hexBytes(bytes: number, ...parts: number[]): string {
  const base = hash32(...parts);
  const hex = spellText((w) => randomHexInto(w, base, (bytes + 3) >>> 2));
  return bytes % 4 === 0 ? hex : hex.slice(0, bytes * 2);
}

/**
 * Appends the hex digits of `words` pseudo-random words derived from `base` (hash32 of the parts)
 * to w, exactly as hexBytes spells them.
 */
export function randomHexInto(w: AsciiWriter, base: number, words: number): void {
  for (let i = 0; i < words; i++) w.hexLE(fmix32((base ^ Math.imul(i + 1, 0x9e3779b9)) >>> 0));
}

/** stringHash of the ASCII text buf[start, end) (same value as stringHash of that string). */
export function bytesHash(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= buf[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Pseudo-random bytes as a Uint8Array (for cb58 / bech32 ids). */
export function randomBytes(bytes: number, ...parts: number[]): Uint8Array {
  const out = new Uint8Array(bytes);
  const base = hash32(...parts);
  let word = 0;
  for (let i = 0; i < bytes; i++) {
    if ((i & 3) === 0) word = fmix32((base ^ Math.imul((i >>> 2) + 1, 0x9e3779b9)) >>> 0);
    out[i] = (word >>> ((i & 3) * 8)) & 0xff;
  }
  return out;
}

/** Small seeded PRNG stream (mulberry32) for sequences such as fault decisions. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stable 32-bit hash of a string (FNV-1a), to turn names into hash domains. */
export function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
