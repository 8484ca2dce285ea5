import { describe, expect, it } from 'vitest';
import { World, WORLD_SIZES } from '../index.ts';
import { bodyBytes, recycleWriters, serializeBody, serializeBodyBytes, JsonItemWriter, JsonSpan, parsedItem } from '../http/jsonText.ts';

describe('native tx JSON writer', () => {
  it('spells exactly the template text, also for high blocks and huge values', () => {
    const world = new World(7, { ...WORLD_SIZES.tiny, evmBlocks: 10_000_000 });
    for (const model of world.evm.chains) {
      const total = model.chain.totalTxs();
      for (let i = 0; i < 3000; i++) {
        const g = i < 1000 ? i : Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * total);
        expect(model.txs.nativeText(g)).toBe(model.txs.nativeTemplate(g));
      }
    }
  });

  it('body bytes are the UTF-8 of the serialized body', () => {
    const spans = (texts: string[]) => {
      const out = new JsonItemWriter(texts.length, 4); // tiny buffer: spans must survive its growth
      for (const t of texts) {
        out.begin().ascii(t);
        out.end();
      }
      return out.items;
    };
    const [s1, s2, s3] = spans(['{"a":1}', '[2,{"b":"c"}]', '"x"']);
    const [t1] = spans(['{"z":null}']);
    expect(parsedItem(s2)).toEqual([2, { b: 'c' }]);
    for (const body of [
      { nextPageToken: 'x', blocks: [s1, s2, s3] },
      { blocks: [s1, s3, s2], n: 2 },
      { blocks: [s2, t1, s3, { é: 1 }, { p: 1 }, s1, s2] },
      { one: [s3], two: [t1, s1] },
      { nextPageToken: 'x', items: [s1, { a: 'é' }, { b: '☃' }, t1] },
      { items: [t1], after: undefined, n: 1, span: s3 },
      { nextPageToken: undefined, transactions: [] },
      {},
      [1, 2],
    ]) {
      expect(serializeBodyBytes(body).toString('utf8')).toBe(serializeBody(body));
      // The same value as the items parsed one by one: no item dropped, doubled or moved.
      const plain = JSON.stringify(body, (_k, v: unknown) => (v instanceof JsonSpan ? parsedItem(v) : v));
      expect(serializeBody(body)).toBe(plain);
      expect(serializeBody(body)).toBe(JSON.stringify(JSON.parse(serializeBody(body))));
    }
  });

  it('a page is sent from its own buffer, which is reused only after it is given back', () => {
    const page = (texts: string[]) => {
      const out = new JsonItemWriter(texts.length);
      for (const t of texts) {
        out.begin().ascii(t);
        out.end();
      }
      return bodyBytes({ nextPageToken: 'tok', transactions: out.items });
    };
    const a = page(['{"a":1}', '{"a":2}']);
    const aText = '{"nextPageToken":"tok","transactions":[{"a":1},{"a":2}]}';
    expect(a.buf.toString()).toBe(aText);
    expect(a.writers).toHaveLength(1);
    expect(a.buf.buffer).toBe(a.writers[0].buf.buffer); // no copy
    // While a is in flight (not given back), other pages never write into its buffer.
    const b = page(['{"b":3}']);
    expect(b.buf.buffer).not.toBe(a.buf.buffer);
    expect(a.buf.toString()).toBe(aText);
    recycleWriters(b.writers);
    recycleWriters(a.writers);
    const c = page(['{"c":4}']);
    expect(c.buf.buffer).toBe(a.buf.buffer); // reused once given back
    expect(c.buf.toString()).toBe('{"nextPageToken":"tok","transactions":[{"c":4}]}');
    recycleWriters(c.writers);
  });
});
