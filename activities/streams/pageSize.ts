import { largestPage } from '../api/endpoint.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { StreamDriver } from './streamDef.ts';

/**
 * The page size a stream requests: its endpoint's largest page (the cheapest per item), lowered by
 * `api.pageSize` when the config sets one for every stream (a number) or for this stream (a map).
 */
export function pageSizeFor(stream: Pick<StreamDriver, 'name' | 'walks'>, config: Pick<ResolvedConfig, 'api'>): number {
  const largest = largestPage(stream.walks);
  const setting = config.api.pageSize;
  const lowered = typeof setting === 'number' ? setting : setting?.[stream.name];
  return Math.min(largest, lowered ?? largest);
}
