import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../activities/api/losslessJson.ts';
import { Money } from '../../activities/api/schemas/common.ts';
import { HolderEntry } from '../../activities/api/schemas/metrics.ts';
import { numberText } from '../../activities/api/schemas/fields.ts';

/**
 * Money.value: the interface sends a decimal string, the public service a JSON number. The client
 * takes both and keeps the exact decimal text either way (tools/simulator/README.md: the simulator keeps the string).
 */
const parse = (text: string) => Money.parse(parseJsonLossless(text)).value;

describe('Money.value', () => {
  it('keeps a decimal string as sent', () => {
    expect(parse('{"currencyCode":"usd","value":"12.34"}')).toBe('12.34');
    expect(parse('{"currencyCode":"usd","value":"123456789012345678901234567890.125"}')).toBe('123456789012345678901234567890.125');
  });

  it('keeps a JSON number as its exact text: integers, fractions, large values', () => {
    expect(parse('{"currencyCode":"usd","value":12}')).toBe('12');
    expect(parse('{"currencyCode":"usd","value":12.345}')).toBe('12.345');
    expect(parse('{"currencyCode":"usd","value":0.30000000000000004}')).toBe('0.30000000000000004');
    // Beyond 2^53: the lossless parse keeps the literal, not the rounded double.
    expect(parse('{"currencyCode":"usd","value":123456789012345678901234567890}')).toBe('123456789012345678901234567890');
    // A double the service spells with an exponent comes back as plain decimal digits.
    expect(parse('{"currencyCode":"usd","value":1.5e+21}')).toBe('1500000000000000000000');
    expect(parse('{"currencyCode":"usd","value":2.5e-7}')).toBe('0.00000025');
  });

  it('numberText spells any finite double without an exponent, and refuses the rest', () => {
    for (const n of [0, -0.5, 1e21, -1.25e22, 1.7976931348623157e308, 5e-324, 123.456e-10]) {
      expect(numberText(n)).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Number(numberText(n))).toBe(n);
    }
    expect(() => numberText(Number.NaN)).toThrow(/finite/);
  });
});

describe('holder sortKey', () => {
  it('a balance as a string or a JSON number, beyond 2^64 and beyond 38 digits, exact', () => {
    const big = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
    expect(HolderEntry.parse(parseJsonLossless(`{"address":"0xa","sortKey":"${big}"}`)).sortKey).toBe(big);
    expect(HolderEntry.parse(parseJsonLossless(`{"address":"0xa","sortKey":${big}}`)).sortKey).toBe(big);
    expect(HolderEntry.parse(parseJsonLossless('{"address":"0xa","sortKey":25}')).sortKey).toBe('25');
  });
});
