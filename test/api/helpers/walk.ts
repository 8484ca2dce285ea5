import type { DataApiClient, ListEndpoint, PageParams, PagesOptions } from '../../../activities/api/index.ts';
import { InvalidPageTokenError } from '../../../activities/api/index.ts';
import type { Simulator } from '../../../simulator/index.ts';

type AnyList = ListEndpoint<PageParams, { [k: string]: readonly unknown[] } & { nextPageToken?: string | null }, string>;

/**
 * A full walk of one list, as the sync core does it: if the server rejects a page token for good,
 * restart from the beginning (its durable cursor) and keep only the complete walk's items.
 */
export async function walkAll(client: DataApiClient, endpoint: AnyList, params: Record<string, unknown>, options: PagesOptions = {}): Promise<{ items: unknown[]; restarts: number }> {
  for (let restarts = 0; restarts < 20; restarts++) {
    const items: unknown[] = [];
    try {
      for await (const page of client.pages(endpoint, params, options)) items.push(...page.items);
      return { items, restarts };
    } catch (error) {
      if (!(error instanceof InvalidPageTokenError)) throw error;
    }
  }
  throw new Error('too many restarts');
}

/** The simulator's ground truth for the same list and filters, validated by the client's own schema. */
export async function truthOf(sim: Simulator, endpoint: AnyList, params: Record<string, unknown>): Promise<unknown[]> {
  const built = endpoint.build(params as PageParams);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(built.query)) if (v !== undefined && k !== 'pageSize' && k !== 'pageToken') query[k] = Array.isArray(v) ? v.join(',') : String(v);
  const raw = await sim.groundTruth(endpoint.method, built.path, query, built.body);
  return (endpoint.schema.parse({ [endpoint.listKey]: raw }) as Record<string, unknown[]>)[endpoint.listKey];
}
