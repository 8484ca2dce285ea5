import { describe, expect, it } from 'vitest';
import { AsciiWriter } from '../http/asciiWriter.ts';

/** Spells one value with a fresh small writer (so growth is exercised too) and reads it back. */
function spell(write: (w: AsciiWriter) => void): string {
  const w = new AsciiWriter(4);
  w.byte(91); // [ : values start at an odd offset, as in a page
  write(w);
  return w.text().slice(1);
}

describe('AsciiWriter', () => {
  it('uint spells String(n) at every digit-count edge up to 2^53', () => {
    const values: number[] = [];
    for (let i = 0; i < 2000; i++) values.push(i);
    for (let p = 0; p <= 53; p++) for (let d = -2; d <= 2; d++) values.push(2 ** p + d);
    for (let k = 1; k <= 15; k++) for (let d = -2; d <= 2; d++) values.push(10 ** k + d);
    let x = 1;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 48271) % 2147483647;
      values.push(x, Math.floor((x / 2147483647) * 2 ** 53));
    }
    for (const n of values.filter((v) => v >= 0 && v <= 2 ** 53)) expect(spell((w) => w.uint(n))).toBe(String(n));
  });

  it('u32Padded pads to the width; hexBE and hexLE spell the word and its bytes', () => {
    expect(spell((w) => w.u32Padded(0, 14))).toBe('00000000000000');
    expect(spell((w) => w.u32Padded(4294967295, 14))).toBe('00004294967295');
    expect(spell((w) => w.u32Padded(123456789, 9))).toBe('123456789');
    for (const v of [0, 1, 0xdeadbeef, 0x0102a0ff, 0xffffffff]) {
      expect(spell((w) => w.hexBE(v))).toBe(v.toString(16).padStart(8, '0'));
      const le = Buffer.alloc(4);
      le.writeUInt32LE(v);
      expect(spell((w) => w.hexLE(v))).toBe(le.toString('hex'));
    }
  });
});
