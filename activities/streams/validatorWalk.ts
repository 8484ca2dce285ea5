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
 * 2. the validations that were open at the last walk (any status not known final: active, pending,
 *    or one this release does not know) and are not active now: they became final, or are still
 *    open; the cursor carries them (`watch`: node id and tx hash) and they are read by node id;
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

/** The statuses a validation never leaves (a status the service adds later is not assumed final: it is followed). */
const FINAL: ReadonlySet<string> = new Set(['completed', 'removed']);

/**
 * Marks of a page: the validations still open (`collect`: every status not known final, so one the
 * service lists in a status this release does not know, `paused` say, is followed like a pending one
 * until it is final); on a page of the whole list in its order (newest first), its first validation
 * (`firsts.newest`: the walk's first page wins).
 */
function marksOf(items: readonly Validator[], wholeList: boolean): ValidatorMarks {
  const collect = items.filter((v) => !FINAL.has(v.validationStatus ?? '')).map(watchKey);
  return wholeList && items.length > 0 ? { firsts: { newest: items[0].txHash ?? '' }, collect } : { collect };
}

const token = (step: Step, api = '') => `step:${step}:${api}`;

/**
 * A page token of the whole list once its pages have reached the last walk's newest validation
 * (`tops.newest`): every later page lists only validations that began before it. Carried in the
 * token, not the cursor, so a walk that restarts from its first page (an expired token) starts above
 * the top again. A bare API token (a page above the top, or a walk of an earlier release) is not below.
 */
const BELOW = 'below-top:';

/**
 * Which items of a page (in list order, newest first) an earlier complete walk stored and that cannot
 * have changed since: a validation at or below the last walk's newest (`below`: the whole page is;
 * otherwise from the top's own index on), final now (completed or removed), and not open at that
 * walk (not in `watch`). That walk listed it, final, and stored it so (or an earlier one did, and it
 * left the list of what a sync reads for the same reason); a final validation never changes again.
 * These are the validations the incremental walk does not read at all; the whole list and the page
 * of the `newest` step that reaches the top list them anyway, and a sync leaves them out of its batch
 * (StreamPage.stored) instead of merging them unchanged. Undefined without the marks of a complete
 * walk (a backfill carries none, nor does a first walk): then every item is written.
 */
function storedItems(items: readonly Validator[], c: ValidatorCursor, below: boolean): boolean[] | undefined {
  const top = c.tops?.newest;
  if (c.watch === undefined || top === undefined) return undefined;
  const from = below ? 0 : items.findIndex((v) => (v.txHash ?? '') === top);
  if (from < 0) return undefined;
  const open = new Set(c.watch);
  const stored = items.map((v, i) => i >= from && FINAL.has(v.validationStatus ?? '') && !open.has(watchKey(v)));
  return stored.some(Boolean) ? stored : undefined;
}

/** The whole list's page token after a page: marked below the top once this page reached it (or an earlier one did). */
const wholeToken = (api: string | undefined, below: boolean, items: readonly Validator[], top: string | undefined): string | undefined =>
  api === undefined ? undefined : below || (top !== undefined && items.some((v) => (v.txHash ?? '') === top)) ? `${BELOW}${api}` : api;

export async function fetchValidatorPage(client: StreamClient, p: PartitionSpec, s: FetchState<ValidatorCursor>): Promise<StreamPage<Validator, ValidatorMarks>> {
  const c = s.cursor?.stream ?? {};
  const network = p.params.network as Network;
  const list = endpoints.primaryNetwork.listValidators;
  // minUptimePerformance defaults to 90 in the service: 0 keeps validations below 90% uptime too.
  // The steps cost at least one request each beyond the open validations' pages: on a short list the whole list is cheaper.
  const stepsCost = Math.ceil((c.watch?.length ?? 0) / s.pageSize) + ORDER.length;
  const incremental = c.watch !== undefined && c.tops?.newest !== undefined && (c.size === undefined || Math.ceil(c.size / s.pageSize) > stepsCost);
  if (!incremental && !s.pageToken?.startsWith('step:')) {
    const below = s.pageToken?.startsWith(BELOW) === true;
    const apiToken = below ? s.pageToken!.slice(BELOW.length) : (s.pageToken ?? undefined);
    const r = await client.call(list, { network, minUptimePerformance: 0, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken: apiToken });
    const stored = storedItems(r.validators, c, below);
    return {
      items: r.validators,
      nextPageToken: wholeToken(r.nextPageToken ?? undefined, below, r.validators, c.tops?.newest),
      marks: { ...marksOf(r.validators, true), listed: r.validators.length },
      ...(stored ? { stored } : {}),
    };
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
    // Only the first page of this step is the top of the whole list. The page that reaches the last
    // walk's newest lists older validations after it, as the whole list does: the stored ones stay out.
    const stored = reachedTop ? storedItems(r.validators, c, false) : undefined;
    return { items: r.validators, nextPageToken: nextPage, marks: marksOf(r.validators, apiToken === undefined), ...(stored ? { stored } : {}) };
  }
  const r = await client.call(list, { network, minUptimePerformance: 0, validationStatus: step, sortBy: 'blockIndex', sortOrder: 'desc', pageSize: s.pageSize, pageToken: apiToken });
  return { items: r.validators, nextPageToken: r.nextPageToken ? token(step, r.nextPageToken) : next(step), marks: marksOf(r.validators, false) };
}
