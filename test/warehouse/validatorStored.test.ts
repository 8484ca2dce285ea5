import { describe, expect, it } from 'vitest';
import type { Validator } from '../../activities/api/schemas/index.ts';
import type { StreamClient } from '../../activities/streams/streamDef.ts';
import { fetchValidatorPage, type ValidatorCursor } from '../../activities/streams/validatorWalk.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';

/**
 * pn.validators' stored items: on the pages a sync lists anyway (the whole list, the `newest` step's
 * page that reaches the last walk's newest), a validation at or below that newest, final now and not
 * open at that walk, was stored final and cannot change: the page names it stored. Anything else (a
 * newer one, an active or pending one, one the last walk saw open) is written.
 */
const partition: PartitionSpec = { stream: 'pn.validators', id: 'pn.validators/mainnet', network: 'mainnet', params: { network: 'mainnet' } };
const v = (txHash: string, validationStatus: string) => ({ nodeId: `NodeID-${txHash}`, txHash, validationStatus }) as unknown as Validator;
const key = (tx: string) => `NodeID-${tx}|${tx}`;

/** A whole list of two pages (newest first); `asked` records the API tokens sent. */
function listOf(pages: Validator[][]): { client: StreamClient; asked: (string | undefined)[] } {
  const asked: (string | undefined)[] = [];
  const client: StreamClient = {
    call: (async (_endpoint: unknown, params: { pageToken?: string }) => {
      asked.push(params.pageToken);
      const i = params.pageToken === undefined ? 0 : Number(params.pageToken.replace('api-', ''));
      return { validators: pages[i], nextPageToken: i + 1 < pages.length ? `api-${i + 1}` : undefined };
    }) as unknown as StreamClient['call'],
  };
  return { client, asked };
}

const pages = [
  // n1 began since the last walk (completed already); t is the last walk's newest.
  [v('n1', 'completed'), v('n2', 'active'), v('t', 'completed'), v('a', 'active'), v('w', 'removed'), v('f1', 'completed')],
  [v('p', 'pending'), v('f2', 'removed'), v('w2', 'completed'), v('f3', 'completed')],
];
// The last walk saw w and w2 open (they became final since) and t final.
// size: the whole list (10) takes fewer pages than the steps would, so a sync reads it whole.
const marks: ValidatorCursor = { watch: [key('a'), key('w'), key('w2'), key('p')], tops: { newest: 't' }, size: 10 };

describe('pn.validators: what a sync leaves out as stored', () => {
  it('whole list: final validations at or below the last newest and not watched; the token carries "below" to the next page', async () => {
    const { client, asked } = listOf(pages);
    const first = await fetchValidatorPage(client, partition, { pageToken: null, pageSize: 6, cursor: { stream: marks } });
    expect(first.stored).toEqual([false, false, true, false, false, true]);
    expect(first.nextPageToken).toBe('below-top:api-1');
    const second = await fetchValidatorPage(client, partition, { pageToken: first.nextPageToken!, pageSize: 6, cursor: { stream: marks } });
    // The API is asked with its own token; every final, unwatched item of a page below the top is stored.
    expect(asked).toEqual([undefined, 'api-1']);
    expect(second.stored).toEqual([false, true, false, true]);
    expect(second.nextPageToken).toBeUndefined();
  });

  it('a page above the top stores nothing and its token is the API’s; a restart from the first page is above it again', async () => {
    const { client } = listOf([[v('n1', 'completed'), v('n2', 'removed')], pages[0]]);
    const first = await fetchValidatorPage(client, partition, { pageToken: null, pageSize: 2, cursor: { stream: marks } });
    expect(first.stored).toBeUndefined();
    expect(first.nextPageToken).toBe('api-1');
  });

  it('without the marks of a complete walk (a backfill, a first walk) every item is written', async () => {
    const { client } = listOf(pages);
    for (const stream of [{}, { tops: { newest: 't' } }, { watch: [key('a')] }] as ValidatorCursor[]) {
      const first = await fetchValidatorPage(client, partition, { pageToken: null, pageSize: 6, cursor: { stream } });
      expect(first.stored).toBeUndefined();
      const second = await fetchValidatorPage(client, partition, { pageToken: first.nextPageToken!, pageSize: 6, cursor: { stream } });
      expect(second.stored).toBeUndefined();
    }
  });

  it('the newest step: the page that reaches the last newest stores the final, unwatched ones from it on', async () => {
    const { client } = listOf(pages);
    // Incremental: the list (size) takes more pages than the steps would.
    const cursor = { stream: { ...marks, size: 10_000 } };
    const page = await fetchValidatorPage(client, partition, { pageToken: 'step:newest:', pageSize: 6, cursor });
    expect(page.stored).toEqual([false, false, true, false, false, true]);
    expect(page.nextPageToken).toBeUndefined();
  });
});
