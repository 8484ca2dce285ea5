import { describe, expect, it } from 'vitest';
import { NETWORKS, resolveChain, resolveNetwork } from './chains.ts';
import { cb58Decode, cb58Encode, derive, encodeAddress, nodeIdFromBytes, normalizeAddress, parseHex } from './ids.ts';

describe('primary-network id codecs', () => {
  it('decode the real chain and asset ids (valid cb58 checksums, 32 bytes) and re-encode them identically', () => {
    for (const n of Object.values(NETWORKS)) {
      for (const id of [...Object.values(n.chainIds), n.avaxAssetId]) {
        const bytes = cb58Decode(id)!;
        expect(bytes).toHaveLength(32);
        expect(cb58Encode(bytes)).toBe(id);
      }
    }
  });

  it('reject a cb58 id whose checksum is wrong', () => {
    const id = NETWORKS.mainnet.chainIds['x-chain'];
    const flipped = id.slice(0, 10) + (id[10] === 'a' ? 'b' : 'a') + id.slice(11);
    expect(cb58Decode(flipped)).toBeUndefined();
    expect(cb58Decode('0OIl')).toBeUndefined();
  });

  it('accept bare, P- and X- addresses of the right hrp and return them bare', () => {
    const real = 'avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg';
    expect(normalizeAddress(real, 'avax')).toBe(real);
    expect(normalizeAddress(`P-${real}`, 'avax')).toBe(real);
    expect(normalizeAddress(`X-${real}`, 'avax')).toBe(real);
    expect(normalizeAddress(real, 'fuji')).toBeUndefined();
    expect(normalizeAddress(real.slice(0, -1) + (real.endsWith('g') ? 'h' : 'g'), 'avax')).toBeUndefined();
    const mine = encodeAddress('fuji', derive('x', 20));
    expect(normalizeAddress(`P-${mine}`, 'fuji')).toBe(mine);
  });

  it('node ids are NodeID- + cb58 of 20 bytes; hex parsing takes an optional 0x', () => {
    const id = nodeIdFromBytes(derive('n', 20));
    expect(id).toMatch(/^NodeID-/);
    expect(cb58Decode(id.slice(7))).toHaveLength(20);
    expect(parseHex('0xabcd')).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(parseHex('abcd')).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(parseHex('abc')).toBeUndefined();
    expect(parseHex('zz')).toBeUndefined();
  });

  it('resolve networks and chain aliases/ids', () => {
    expect(resolveNetwork('testnet')).toBe('fuji');
    expect(resolveNetwork('devnet')).toBeUndefined();
    expect(resolveChain('fuji', NETWORKS.fuji.chainIds['c-chain'])).toBe('c-chain');
    expect(resolveChain('fuji', NETWORKS.mainnet.chainIds['c-chain'])).toBeUndefined();
    expect(resolveChain('mainnet', 'x-chain')).toBe('x-chain');
  });
});
