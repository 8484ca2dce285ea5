import type { DataApiClient, PagesOptions } from '../../../activities/api/index.ts';
import type { BuiltRequest } from '../../../activities/api/endpoint.ts';
import { InvalidPageTokenError } from '../../../activities/api/index.ts';
import type { Simulator } from '../../../tools/simulator/index.ts';

/** Any list endpoint, whatever its parameter and response types (tests walk them generically). */
export interface AnyList {
  method: 'GET' | 'POST';
  listKey: string;
  schema: { parse(value: unknown): unknown };
  build(params: never): BuiltRequest;
}

/**
 * A full walk of one list, as the sync core does it: if the server rejects a page token for good,
 * restart from the beginning (its durable cursor) and keep only the complete walk's items.
 */
export async function walkAll(client: DataApiClient, endpoint: AnyList, params: Record<string, unknown>, options: PagesOptions = {}): Promise<{ items: unknown[]; restarts: number }> {
  for (let restarts = 0; restarts < 20; restarts++) {
    const items: unknown[] = [];
    try {
      for await (const page of client.pages(endpoint as never, params as never, options)) items.push(...(page.items as unknown[]));
      return { items, restarts };
    } catch (error) {
      if (!(error instanceof InvalidPageTokenError)) throw error;
    }
  }
  throw new Error('too many restarts');
}

/** The simulator's ground truth for the same list and filters, validated by the client's own schema. */
export async function truthOf(sim: Simulator, endpoint: AnyList, params: Record<string, unknown>): Promise<unknown[]> {
  const built = endpoint.build(params as never);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(built.query)) if (v !== undefined && k !== 'pageSize' && k !== 'pageToken') query[k] = Array.isArray(v) ? v.join(',') : String(v);
  const raw = await sim.groundTruth(endpoint.method, built.path, query, built.body);
  return (endpoint.schema.parse({ [endpoint.listKey]: raw }) as Record<string, unknown[]>)[endpoint.listKey];
}
