import { endpoints } from '../api/endpoints/index.ts';
import type { Network } from '../api/endpoints/index.ts';
import type { Validator } from '../api/schemas/index.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { compact, union, type OwnCursor } from './ownCursor.ts';
import type { FetchState, StreamClient, StreamPage } from './streamDef.ts';

/**
 * How pn.validators walks a network so that a sync reads what can have changed, and stays exact.
 * completed and removed are final: such a validation never changes again. So a sync reads
 *
 * 1. every `active` validation (their fields change from run to run);
 * 2. the validations that were active or pending at the last walk and are not active now: they
 *    became final, or are still pending; the cursor carries them (`watch`: node id and tx hash) and
 *    they are read by node id;
 * 3. the whole list (every status) newest first (blockIndex desc) until the newest validation of
 *    the last walk (`tops.newest`): every validation that began since sits above it, whatever its
 *    status now (pending, active, or already completed or removed); one that began before it and
 *    changed since was open then, so step 2 (or 1) reads it.
 *
 * A backfill (or a walk without marks) reads the whole list once and sets the marks; so does a sync
 * when the list (as long as the last whole walk found it) takes fewer pages than the steps would.
 * Page tokens carry the step (`step:<name>:<token>`). Cursors of the earlier five-step walk (tops per
 * final status, no `newest`) take one whole walk to gain the mark.
 */
type Step = 'active' | 'lookup' | 'newest';
const ORDER: Step[] = ['active', 'lookup', 'newest'];
/**
 * Node ids per lookup request (comma-separated in the query: 64 stay near 3 KB of URL). A lookup asks
 * newest first and stops at the page that holds every validation it looks for, so a chunk of nodes
 * with long histories costs no more than the pages down to its oldest open validation.
 */
const NODE_IDS_PER_LOOKUP = 64;

const watchKey = (v: Validator) => `${v.nodeId}|${v.txHash ?? ''}`;

/**
 * pn.validators' own part of the cursor: the validations open at the last complete walk (`watch`,
 * node id and tx hash) and the newest validation of the whole list (`tops.newest`); this walk's own,
 * as pages report them, in `collected` and `firsts` (the first page wins). `listed` counts the items
 * of a whole-list walk, `size` keeps the count of the last complete one (it picks the cheaper walk).
 */
export interface ValidatorCursor {
  watch?: string[];
  tops?: Record<string, string>;
  collected?: string[];
  firsts?: Record<string, string>;
  listed?: number;
  size?: number;
}

/** What a page reports: the open validations it listed, the whole list's top, its item count. */
export interface ValidatorMarks {
  collect?: string[];
  firsts?: Record<string, string>;
  listed?: number;
}

export const validatorCursor: OwnCursor<ValidatorCursor, ValidatorMarks> = {
  carry: (stored) => compact({ watch: stored.watch, tops: stored.tops, size: stored.size }),
  fold: (part, marks) => {
    const out = { ...part };
    if (marks.firsts !== undefined) out.firsts = { ...marks.firsts, ...out.firsts };
    if (marks.listed !== undefined) out.listed = (out.listed ?? 0) + marks.listed;
    if (marks.collect !== undefined) out.collected = union(out.collected, marks.collect);
    return out;
  },
  settle: (part) => compact({ watch: part.collected ?? part.watch, tops: part.firsts !== undefined ? { ...part.tops, ...part.firsts } : part.tops, size: part.listed ?? part.size }),
  flatFields: ['watch', 'tops', 'collected', 'firsts', 'listed', 'size'],
};

/**
 * Marks of a page: the validations still open (`collect`); on a page of the whole list in its order
 * (newest first), its first validation (`firsts.newest`: the walk's first page wins).
 */
function marksOf(items: readonly Validator[], wholeList: boolean): ValidatorMarks {
  const collect = items.filter((v) => v.validationStatus === 'active' || v.validationStatus === 'pending').map(watchKey);
  return wholeList && items.length > 0 ? { firsts: { newest: items[0].txHash ?? '' }, collect } : { collect };
}

const token = (step: Step, api = '') => `step:${step}:${api}`;

export async function fetchValidatorPage(client: StreamClient, p: PartitionSpec, s: FetchState<ValidatorCursor>): Promise<StreamPage<Validator, ValidatorMarks>> {
  const c = s.cursor?.stream ?? {};
  const network = p.params.network as Network;
  const list = endpoints.primaryNetwork.listValidators;
  // minUptimePerformance defaults to 90 in the service: 0 keeps validations below 90% uptime too.
  // The steps cost at least one request each beyond the open validations' pages: on a short list the whole list is cheaper.
  const stepsCost = Math.ceil((c.watch?.length ?? 0) / s.pageSize) + ORDER.length;
  const incremental = c.watch !== undefined && c.tops?.newest !== undefined && (c.size === undefined || Math.ceil(c.size / s.pageSize) > stepsCost);
  if (!incremental && !s.pageToken?.startsWith('step:')) {
    const r = await client.call(list, { network, minUptimePerformance: 0, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken: s.pageToken ?? undefined });
    return { items: r.validators, nextPageToken: r.nextPageToken ?? undefined, marks: { ...marksOf(r.validators, true), listed: r.validators.length } };
  }
  const [, stepName, ...rest] = (s.pageToken ?? token('active')).split(':');
  const step = stepName as Step;
  const apiToken = rest.join(':') || undefined;
  const next = (from: Step): string | undefined => {
    const i = ORDER.indexOf(from);
    return i + 1 < ORDER.length ? token(ORDER[i + 1]) : undefined;
  };
  if (step === 'lookup') {
    // Open at the last walk, not seen active now: read them by node id (all statuses), keep those validations.
    const open = new Set(c.collected ?? []);
    const gone = (c.watch ?? []).filter((k) => !open.has(k));
    const nodeOf = (k: string) => k.split('|')[0];
    // Token: the last node id of the chunks done, the node ids of the chunk being paged, the API's token.
    // Chunks go by node id, and a chunk being paged keeps its node ids: what a page collects leaves
    // `gone` meanwhile, and neither the query of the next page nor the next chunk may shift with it.
    const [after = '', paged = '', ...rest] = (apiToken ?? '').split('|');
    const pageToken = rest.join('|') || undefined;
    const pending = [...new Set(gone.map(nodeOf))].sort().filter((id) => id > after);
    const chunkIds = paged ? paged.split(',') : pending.slice(0, NODE_IDS_PER_LOOKUP);
    if (chunkIds.length === 0) return { items: [], nextPageToken: next('lookup') };
    const r = await client.call(list, { network, minUptimePerformance: 0, nodeIds: chunkIds, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken });
    const wanted = new Set(gone);
    const items = r.validators.filter((v) => wanted.has(watchKey(v)));
    // Every validation this chunk looks for is on this page: the pages below hold none of them.
    const inChunk = new Set(chunkIds);
    const here = new Set(items.map(watchKey));
    const allHere = gone.filter((k) => inChunk.has(nodeOf(k))).every((k) => here.has(k));
    const last = chunkIds[chunkIds.length - 1];
    const nextPage =
      r.nextPageToken && !allHere ? token('lookup', `${after}|${chunkIds.join(',')}|${r.nextPageToken}`) : pending.some((id) => id > last) ? token('lookup', `${last}||`) : next('lookup');
    return { items, nextPageToken: nextPage, marks: marksOf(items, false) };
  }
  if (step === 'newest') {
    // Validations that began since the last walk, every status, down to that walk's newest.
    const r = await client.call(list, { network, minUptimePerformance: 0, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken: apiToken });
    const reachedTop = r.validators.some((v) => (v.txHash ?? '') === c.tops?.newest);
    const nextPage = r.nextPageToken && !reachedTop ? token('newest', r.nextPageToken) : undefined;
    // Only the first page of this step is the top of the whole list.
    return { items: r.validators, nextPageToken: nextPage, marks: marksOf(r.validators, apiToken === undefined) };
  }
  const r = await client.call(list, { network, minUptimePerformance: 0, validationStatus: step, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken: apiToken });
  return { items: r.validators, nextPageToken: r.nextPageToken ? token(step, r.nextPageToken) : next(step), marks: marksOf(r.validators, false) };
}
