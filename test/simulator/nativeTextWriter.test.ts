import { describe, expect, it } from 'vitest';
import { World, WORLD_SIZES } from '../../simulator/index.ts';
import { serializeBody, serializeBodyBytes, JsonText } from '../../simulator/http/jsonText.ts';

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
    for (const body of [
      { nextPageToken: 'x', items: [new JsonText('{"a":"é"}'), { b: '☃' }, new JsonText('1')] },
      { items: [new JsonText('{}')], after: undefined, n: 1 },
      { nextPageToken: undefined, transactions: [] },
      {},
      [1, 2],
    ]) {
      expect(serializeBodyBytes(body).toString('utf8')).toBe(serializeBody(body));
      expect(serializeBody(body)).toBe(JSON.stringify(JSON.parse(serializeBody(body))));
    }
  });
});
