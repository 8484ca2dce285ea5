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

/** Hash of up to a few integers (each may be up to 2^53) into an unsigned 32-bit value. */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = fmix32(h ^ lo) + 0x7f4a7c15;
    h = fmix32(h ^ hi) + 0x165667b1;
  }
  return fmix32(h);
}

/** Uniform float in [0, 1). */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 4294967296;
}

/** Uniform integer in [lo, hi] (inclusive). */
export function intIn(lo: number, hi: number, ...parts: number[]): number {
  return lo + Math.floor(unit(...parts) * (hi - lo + 1));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** `bytes` pseudo-random bytes as lower-case hex (no prefix). */
export function hexBytes(bytes: number, ...parts: number[]): string {
  let out = '';
  let word = 0;
  for (let i = 0; i < bytes; i++) {
    if ((i & 3) === 0) word = hash32(...parts, i >>> 2);
    out += HEX[(word >>> ((i & 3) * 8)) & 0xff];
  }
  return out;
}

/** Pseudo-random bytes as a Uint8Array (for cb58 / bech32 ids). */
export function randomBytes(bytes: number, ...parts: number[]): Uint8Array {
  const out = new Uint8Array(bytes);
  let word = 0;
  for (let i = 0; i < bytes; i++) {
    if ((i & 3) === 0) word = hash32(...parts, i >>> 2);
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
