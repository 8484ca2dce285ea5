import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../activities/api/losslessJson.ts';
import { ResponseValidationError } from '../../activities/api/errors.ts';
import { BlocksPage } from '../../activities/api/schemas/index.ts';
import { validateResponse } from '../../activities/api/validateResponse.ts';

const U256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
const request = { method: 'GET', target: '/v1/chains/43114/blocks' };

describe('parseJsonLossless: same as JSON.parse without unsafe integers', () => {
  const same = [
    '{}',
    '[]',
    'null',
    'true',
    '0',
    '-0',
    '"text"',
    '{"a":1,"b":[1,2,{"c":null,"d":false}],"e":{"f":{"g":"h"}}}',
    '[[[[1]]],[[2,3]],{"x":[{"y":[]}]}]',
    '{"unicode":"\\u00e9\\u4e2d\\ud83d\\ude00","raw":"é中😀","esc":"\\n\\t\\/\\b\\f\\r"}',
    // Long digit runs inside strings are never touched, whatever precedes them.
    '{"memo":"x:123456789012345678901,","list":"[12345678901234567890]","neg":"-123456789012345678901"}',
    '{"memo":"a \\"quoted\\": 123456789012345678901 here","after":5}',
    '{"backslash":"ends with \\\\","n":12345}',
    '{"value":"115792089237316195423570985008687907853269984665640564039457584007913129639935","hash":"0x1234567890123456789012345678901234567890"}',
    // Safe integers, fractions and exponents stay numbers.
    '[9007199254740991,-9007199254740991,123456789012345,1.5,-2.25e-7,1e21,1E+300,12345678901234567890.5,1.2345678901234567e30]',
    ' \n\t{ "spaced" : [ 1 , 2 ] }\r\n ',
  ];
  it.each(same)('%s', (text) => {
    expect(parseJsonLossless(text)).toEqual(JSON.parse(text));
  });

  it('keeps a string whose digits follow an escaped quote as it is', () => {
    expect(parseJsonLossless('{"k":"\\"12345678901234567890\\"","v":12345678901234567890}')).toEqual({ k: '"12345678901234567890"', v: '12345678901234567890' });
  });

  it('keeps a key made of digits as a key', () => {
    expect(parseJsonLossless('{"12345678901234567890":12345678901234567890}')).toEqual({ '12345678901234567890': '12345678901234567890' });
  });
});

describe('parseJsonLossless: integers beyond 2^53 come back as exact text', () => {
  it('at top level, positive and negative', () => {
    expect(parseJsonLossless(U256_MAX)).toBe(U256_MAX);
    expect(parseJsonLossless(` -${U256_MAX}\n`)).toBe(`-${U256_MAX}`);
  });

  it('in arrays and as object values, next to values that stay as they are', () => {
    const text = `{"baseFee":${U256_MAX},"neg":-18446744073709551616,"list":[1,${U256_MAX},[-${U256_MAX}],"${U256_MAX}",2.5],"nested":{"deep":[{"v":18446744073709551615}]},"s":"x:${U256_MAX}"}`;
    expect(parseJsonLossless(text)).toEqual({
      baseFee: U256_MAX,
      neg: '-18446744073709551616',
      list: [1, U256_MAX, [`-${U256_MAX}`], U256_MAX, 2.5],
      nested: { deep: [{ v: '18446744073709551615' }] },
      s: `x:${U256_MAX}`,
    });
  });

  it('with whitespace around the tokens', () => {
    expect(parseJsonLossless(`{ "a" :\n  ${U256_MAX} ,\n "b" : [ -${U256_MAX} ] }`)).toEqual({ a: U256_MAX, b: [`-${U256_MAX}`] });
  });

  it('draws the line at the safe range: 2^53-1 stays a number, 2^53 and 2^53+1 become text', () => {
    expect(parseJsonLossless('[9007199254740991,-9007199254740991]')).toEqual([9007199254740991, -9007199254740991]);
    expect(parseJsonLossless('[9007199254740992,9007199254740993,-9007199254740993]')).toEqual(['9007199254740992', '9007199254740993', '-9007199254740993']);
  });

  it('leaves floats and exponents as numbers on a page that also holds a big integer', () => {
    expect(parseJsonLossless(`[${U256_MAX},1e300,-1.5e+300,123456789012345678901.25,0.000000000000000001]`)).toEqual([U256_MAX, 1e300, -1.5e300, Number('123456789012345678901.25'), 1e-18]);
  });

  it('leaves strings and escapes untouched on a page that also holds a big integer', () => {
    const text = `{"a":"he said \\"12345678901234567890\\" then \\\\","b":${U256_MAX},"c":"\\u0031234567890123456789","d":"[${U256_MAX}]"}`;
    expect(parseJsonLossless(text)).toEqual({ a: 'he said "12345678901234567890" then \\', b: U256_MAX, c: '1234567890123456789', d: `[${U256_MAX}]` });
  });
});

describe('parseJsonLossless: where the parsed order and the text order can differ', () => {
  it('an object with array-index keys (enumerated first by JS) still pairs each literal with its own key', () => {
    const text = `{"b":18446744073709551615,"1":18446744073709551617,"0":[9007199254740993],"a":{"7":-18446744073709551619}}`;
    expect(parseJsonLossless(text)).toEqual({ b: '18446744073709551615', 1: '18446744073709551617', 0: ['9007199254740993'], a: { 7: '-18446744073709551619' } });
    // Both round to 2^64, so only the keys tell them apart.
    expect(parseJsonLossless(`{"b":18446744073709551615,"1":18446744073709551617}`)).toEqual({ b: '18446744073709551615', 1: '18446744073709551617' });
  });

  it('a duplicate key keeps the last value, exactly', () => {
    expect(parseJsonLossless(`{"a":18446744073709551615,"b":1,"a":18446744073709551617}`)).toEqual({ a: '18446744073709551617', b: 1 });
    expect(parseJsonLossless(`{"a":18446744073709551615,"a":5,"c":18446744073709551617}`)).toEqual({ a: 5, c: '18446744073709551617' });
  });

  it('two literals that round to the same double keep their own digits', () => {
    expect(parseJsonLossless(`[18446744073709551615,18446744073709551616,{"x":18446744073709551617}]`)).toEqual(['18446744073709551615', '18446744073709551616', { x: '18446744073709551617' }]);
  });

  it('random documents: every big literal comes back as its own text, next to exponents and strings of digits', () => {
    // A seeded generator (LCG): nested objects and arrays whose keys include array indexes.
    let seed = 12345;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const bigDigits = () => `${1 + rand(9)}${Array.from({ length: 15 + rand(30) }, () => rand(10)).join('')}`;
    const gen = (depth: number): { text: string; value: unknown } => {
      const kind = depth > 3 ? rand(5) : rand(7);
      if (kind === 0) return { text: '12345', value: 12345 };
      if (kind === 1) {
        const d = (rand(2) ? '-' : '') + bigDigits();
        return Number.isSafeInteger(Number(d)) ? { text: d, value: Number(d) } : { text: d, value: d };
      }
      if (kind === 2) return { text: '1.5e300', value: 1.5e300 };
      if (kind === 3) {
        const d = bigDigits();
        return { text: `"x:${d}"`, value: `x:${d}` };
      }
      if (kind === 4) return { text: '9007199254740993.5', value: Number('9007199254740993.5') };
      if (kind === 5) {
        const items = Array.from({ length: rand(4) }, () => gen(depth + 1));
        return { text: `[${items.map((i) => i.text).join(',')}]`, value: items.map((i) => i.value) };
      }
      const keys = [...new Set(Array.from({ length: rand(5) }, () => ['a', 'b', '0', '1', '42', 'z9'][rand(6)]))];
      const entries = keys.map((k) => [k, gen(depth + 1)] as const);
      return { text: `{${entries.map(([k, v]) => `"${k}":${v.text}`).join(',')}}`, value: Object.fromEntries(entries.map(([k, v]) => [k, v.value])) };
    };
    for (let i = 0; i < 500; i++) {
      const doc = gen(0);
      expect(parseJsonLossless(doc.text)).toEqual(doc.value);
    }
  });
});

describe('parseJsonLossless: malformed text', () => {
  const malformed = [
    '',
    '{',
    '{"a":1',
    '{"a":}',
    `{"a":${U256_MAX}`,
    `{${U256_MAX}:1}`,
    `[${U256_MAX} ${U256_MAX}]`,
    `[0${U256_MAX}]`,
    `[${U256_MAX}x]`,
    `[-]`,
    `{"a":"unterminated ${U256_MAX}}`,
    `{"a":1,}`,
    `[1,2,]`,
    `'single'`,
    `{"a":NaN}`,
    `${U256_MAX} trailing`,
  ];
  it.each(malformed)('%j throws a SyntaxError', (text) => {
    expect(() => parseJsonLossless(text)).toThrow(SyntaxError);
  });
});

describe('lossless parse + schemas', () => {
  const page = (fields: string) => `{"blocks":[{"blockNumber":"1","blockHash":"0x01",${fields}}]}`;

  it('a uint256 sent as a bare number fills a decimal field exactly', () => {
    const parsed = validateResponse(BlocksPage, parseJsonLossless(page(`"baseFee":${U256_MAX},"blockTimestamp":1700000000`)), request);
    expect(parsed.blocks[0].baseFee).toBe(U256_MAX);
    expect(parsed.blocks[0].blockTimestamp).toBe(1700000000);
  });

  it('a big integer in an integer field (bare or quoted) is a ResponseValidationError naming the field, not a rounded number', () => {
    for (const value of ['18446744073709551616', '"18446744073709551616"']) {
      const error = (() => {
        try {
          return validateResponse(BlocksPage, parseJsonLossless(page(`"blockTimestamp":${value}`)), request);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe('blocks[0].blockTimestamp');
      expect((error as Error).message).toMatch(/2\^53/);
    }
  });
});
