import { describe, expect, it } from 'vitest';
import type { Validator } from '../../activities/api/schemas/index.ts';
import type { StreamClient } from '../../activities/streams/streamDef.ts';
import { fetchValidatorPage } from '../../activities/streams/validatorWalk.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';

/**
 * The lookup step of pn.validators (validators that were open at the last walk and are not active
 * now) pages a chunk of node ids. What a page collects (a validation still pending) leaves the set
 * being looked up; the next page of the chunk must still send the same node ids (a page token is
 * bound to its query), and the next chunk must not skip a node.
 */
const partition: PartitionSpec = { stream: 'pn.validators', id: 'pn.validators/mainnet', network: 'mainnet', params: { network: 'mainnet' } };

const v = (nodeId: string, txHash: string, validationStatus: string) => ({ nodeId, txHash, validationStatus }) as unknown as Validator;

describe('pn.validators lookup step', () => {
  it('keeps a chunk’s node ids across its pages and resumes by node id, whatever the pages collected', async () => {
    const nodes = Array.from({ length: 70 }, (_, i) => `NodeID-${String(i).padStart(3, '0')}`);
    const watch = nodes.map((n) => `${n}|tx-${n}`);
    const asked: { nodeIds: string[]; pageToken?: string }[] = [];
    const client: StreamClient = {
      call: (async (_endpoint: unknown, params: { nodeIds: string[]; pageToken?: string }) => {
        asked.push({ nodeIds: params.nodeIds, pageToken: params.pageToken });
        // First page of the first chunk: one validation still pending (collected), not all of the chunk's.
        if (asked.length === 1) return { validators: [v(nodes[0], `tx-${nodes[0]}`, 'pending')], nextPageToken: 'api-2' };
        return { validators: params.nodeIds.map((n) => v(n, `tx-${n}`, 'completed')), nextPageToken: undefined };
      }) as unknown as StreamClient['call'],
    };
    const base = { watch, tops: { newest: 'x' } };
    let pageToken: string | null = 'step:lookup:';
    let collected: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 10 && pageToken?.startsWith('step:lookup:'); i++) {
      const page = await fetchValidatorPage(client, partition, { pageToken, pageSize: 100, cursor: { stream: { ...base, collected } } });
      for (const item of page.items) seen.add(`${item.nodeId}|${item.txHash}`);
      collected = [...collected, ...(page.marks?.collect ?? [])];
      pageToken = page.nextPageToken ?? null;
    }
    expect(pageToken).toBe('step:newest:');
    // The chunk's second page sends the same node ids as its first, with the API's token.
    expect(asked[1]).toEqual({ nodeIds: asked[0].nodeIds, pageToken: 'api-2' });
    expect(asked[0].nodeIds.length).toBe(64);
    // Every watched validation was read: none skipped when the collected one left the set.
    expect([...seen].sort()).toEqual([...watch].sort());
    expect(asked.length).toBe(3);
  });
});
