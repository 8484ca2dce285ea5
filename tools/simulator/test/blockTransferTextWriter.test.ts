import { describe, expect, it } from 'vitest';
import { World, WORLD_SIZES } from '../index.ts';
import { AsciiWriter } from '../http/asciiWriter.ts';
import type { WorldSize } from '../index.ts';
import { blockJsonText, blockTemplate } from '../evm/blocks.ts';
import { transferListTemplate, transferListText } from '../evm/transferJson.ts';

const WORLDS: [string, WorldSize][] = [
  ['tiny', WORLD_SIZES.tiny],
  ['small', WORLD_SIZES.small],
  ['10M-block', { ...WORLD_SIZES.tiny, evmBlocks: 10_000_000 }],
];

/** The first `dense` indexes, then `spread` pseudo-random ones below n, then the last few. */
function indexes(n: number, dense: number, spread: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(dense, n); i++) out.push(i);
  for (let i = 0; i < spread; i++) out.push(Math.floor((((i * 2654435761) % 4294967296) / 4294967296) * n));
  for (let i = Math.max(0, n - 5); i < n; i++) out.push(i);
  return out;
}

describe('block list JSON writer', () => {
  for (const [label, size] of WORLDS) {
    it(`spells exactly the template text (${label} world, first, spread and tip blocks)`, () => {
      const world = new World(7, size);
      let bigFees = 0;
      for (const model of world.evm.chains) {
        for (const b of indexes(model.chain.height(), 600, 1500)) {
          const text = blockJsonText(model, model.txs, b);
          expect(text).toBe(blockTemplate(model, model.txs, b));
          if (BigInt((JSON.parse(text) as { feesSpent: string }).feesSpent) > BigInt(Number.MAX_SAFE_INTEGER)) bigFees++;
        }
      }
      // Both spellings of feesSpent (plain double and beyond 2^53) are exercised.
      expect(bigFees).toBeGreaterThan(0);
    });
  }
});

describe('token transfer list JSON writer', () => {
  for (const [label, size] of WORLDS) {
    it(`spells exactly the template text (${label} world, every contract kind, mints and latest transfers)`, () => {
      const world = new World(7, size);
      const kinds = new Set<string>();
      for (const model of world.evm.chains) {
        for (const ledger of model.ledgers) {
          const total = ledger.transfersBefore(model.chain.totalTxs());
          kinds.add(ledger.token.ercType);
          for (const k of indexes(total, 300, 600)) {
            expect(transferListText(model, ledger, k)).toBe(transferListTemplate(model, ledger.token, ledger.transfer(k)));
          }
        }
      }
      expect([...kinds].sort()).toEqual(['ERC-1155', 'ERC-20', 'ERC-721']);
    });
  }
});

describe('AsciiWriter.uint', () => {
  it('spells String(n) for edge values up to 2^53', () => {
    const w = new AsciiWriter(4);
    const values = [0, 1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 1e8, 1e9 - 1, 1e9, 1e10, 1e15, 9e15, 2 ** 53 - 1, 2 ** 53];
    for (let i = 0; i < 2000; i++) values.push(Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * 2 ** (i % 54)));
    for (const n of values) {
      w.reset().uint(n);
      expect(w.text()).toBe(String(n));
    }
  });
});
