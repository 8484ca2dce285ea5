import * as c from '@avalanche-sdk/chainkit/models/components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../index.ts';
import { walk } from '../simHttp.ts';

/**
 * The validator list of the real simulator (tiny world, over HTTP) judged by the official SDK's
 * own schema: every page of every network, with each validationStatus filter and without one,
 * parses with `ListValidatorDetailsResponse$inboundSchema` (a union of ActiveValidatorDetails,
 * PendingValidatorDetails, CompletedValidatorDetails, RemovedValidatorDetails, told apart by
 * `validationStatus`). The SDK's zod objects drop keys they do not know, so a field the simulator
 * sends that the SDK's model of that status lacks is caught too, by comparing the keys of each raw
 * entry with those of its parsed twin.
 */

/**
 * Fields where the simulator keeps the interface document over the public service, as
 * `status.field` (or `*.field`) with the reason. None at present: the interface document lists the
 * Validator fields without saying which statuses carry them ("which response fields are always
 * present ... not shown"), so the public per-status shape contradicts it nowhere.
 */
const EXCEPTIONS: Record<string, string> = {};

const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
const STATUSES = ['active', 'completed', 'pending', 'removed'] as const;
const BY_STATUS = {
  active: c.ActiveValidatorDetails$inboundSchema,
  completed: c.CompletedValidatorDetails$inboundSchema,
  pending: c.PendingValidatorDetails$inboundSchema,
  removed: c.RemovedValidatorDetails$inboundSchema,
};
// The list's default is minUptimePerformance=90; 0 shows the whole set (every status of a tiny world).
const UPTIME = [{}, { minUptimePerformance: 0 }] as const;

interface Finding {
  where: string;
  problem: string;
}

let sim: Simulator;
const findings: Finding[] = [];
/** Pages walked, and pages the SDK's page schema accepted as a whole. */
const pageCount = { walked: 0, parsed: 0 };
/** Every entry seen, by network and query, raw. */
const seen = new Map<string, Record<string, unknown>[]>();

const excepted = (status: unknown, path: string) => `${String(status)}.${path}` in EXCEPTIONS || `*.${path}` in EXCEPTIONS;

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, size: 'tiny' });
  for (const network of NETWORKS) {
    for (const uptime of UPTIME) {
      for (const status of [undefined, ...STATUSES]) {
        const query: Record<string, string | number> = { pageSize: 7, ...uptime, ...(status ? { validationStatus: status } : {}) };
        const label = `${network} ${JSON.stringify(query)}`;
        const { pages, items } = await walk(sim.baseUrl, `/v1/networks/${network}/validators`, 'validators', query);
        seen.set(label, items as Record<string, unknown>[]);
        pages.forEach((page, p) => {
          const where = `${label} page ${p}`;
          // The page as the SDK reads it; entries are then judged one by one by the model of their
          // own status, so an issue names its field (the union alone only says "Invalid input").
          const parsed = c.ListValidatorDetailsResponse$inboundSchema.safeParse(page);
          pageCount.walked++;
          if (parsed.success) pageCount.parsed++;
          if (!parsed.success) for (const issue of parsed.error.issues) if (issue.path[0] !== 'validators') findings.push({ where, problem: `${issue.path.join('.')}: ${issue.message}` });
          (page.validators as Record<string, unknown>[]).forEach((raw, i) => {
            const status = raw.validationStatus;
            const schema = BY_STATUS[status as (typeof STATUSES)[number]];
            if (schema === undefined) return void findings.push({ where, problem: `validators.${i}: validationStatus ${String(status)} is none of the SDK's` });
            const one = schema.safeParse(raw);
            if (!one.success) {
              for (const issue of one.error.issues) if (!excepted(status, issue.path.join('.'))) findings.push({ where, problem: `${String(status)} validators.${i}.${issue.path.join('.')}: ${issue.message}` });
              return;
            }
            const known = new Set(Object.keys(one.data));
            for (const key of Object.keys(raw)) {
              if (!known.has(key) && !excepted(status, key)) findings.push({ where, problem: `${String(status)} entry sends ${key}, which the SDK's model of that status does not have` });
            }
          });
        });
      }
    }
  }
}, 120_000);

afterAll(async () => {
  await sim?.close();
});

const entries = (network: string, query: Record<string, string | number>) => seen.get(`${network} ${JSON.stringify({ pageSize: 7, ...query })}`) ?? [];

describe('validators list against the official SDK (ListValidatorDetailsResponse)', () => {
  it('every page of every network, status filter and uptime range parses, with no unknown field', () => {
    expect(seen.size).toBe(NETWORKS.length * UPTIME.length * (STATUSES.length + 1));
    expect(findings).toEqual([]);
    // With no exception in force, every page must also pass the SDK's page schema as a whole.
    if (Object.keys(EXCEPTIONS).length === 0) expect(pageCount.parsed).toBe(pageCount.walked);
    expect(pageCount.walked).toBeGreaterThan(NETWORKS.length * UPTIME.length * (STATUSES.length + 1));
  });

  it('the walk is not vacuous: every status, a null and a non-null geolocation, on every network', () => {
    for (const network of NETWORKS) {
      const all = entries(network, { minUptimePerformance: 0 });
      expect(new Set(all.map((v) => v.validationStatus)), network).toEqual(new Set(STATUSES));
      const geolocations = new Set(all.filter((v) => v.validationStatus === 'active').map((v) => (v.geolocation === null ? 'null' : typeof v.geolocation)));
      expect(geolocations, network).toEqual(new Set(['null', 'object']));
      // Each filter returns exactly the entries of its status, and the filters partition the list.
      const byFilter = STATUSES.flatMap((s) => {
        const list = entries(network, { minUptimePerformance: 0, validationStatus: s });
        expect(list.length, `${network} ${s}`).toBeGreaterThan(0);
        expect(list.every((v) => v.validationStatus === s), `${network} ${s}`).toBe(true);
        return list.map((v) => `${String(v.nodeId)}/${String(v.txHash)}`);
      });
      expect(byFilter.sort()).toEqual(all.map((v) => `${String(v.nodeId)}/${String(v.txHash)}`).sort());
    }
  });

  it('values are consistent with the world: stake shares, delegation capacity, per-status fields', () => {
    for (const network of NETWORKS) {
      const all = entries(network, { minUptimePerformance: 0 });
      const share = new Map<string, number>();
      for (const v of all.filter((x) => x.validationStatus === 'active')) share.set(String(v.subnetId), (share.get(String(v.subnetId)) ?? 0) + (v.stakePercentage as number));
      for (const [subnet, total] of share) expect(total, `${network} ${subnet}`).toBeCloseTo(100, 3);
      const head = (sim.world.describe().primary as Record<string, { headTimestamp: number }>)[network === 'testnet' ? 'fuji' : network].headTimestamp;
      for (const v of all) {
        const id = `${network} ${String(v.validationStatus)} ${String(v.txHash)}`;
        if (v.validationStatus === 'active' && v.delegationFee !== undefined) {
          // Primary network: at most 4x the own stake may be delegated; capacity is what is left.
          const cap = BigInt(v.delegationCapacity as string) + BigInt(v.amountDelegated as string);
          expect(cap <= 4n * BigInt(v.amountStaked as string), id).toBe(true);
          expect(BigInt((v.potentialRewards as { validationRewardAmount: string }).validationRewardAmount) > 0n, id).toBe(true);
        }
        const start = v.startTimestamp as number;
        const end = v.endTimestamp as number;
        if (v.validationStatus === 'pending') expect(start, id).toBeGreaterThan(head);
        if (v.validationStatus === 'active') expect(start <= head && head < end, id).toBe(true);
        if (v.validationStatus === 'completed') expect(end, id).toBeLessThanOrEqual(head);
        if (v.validationStatus === 'removed') expect(v.removeTimestamp as number, id).toBeGreaterThanOrEqual(v.startTimestamp as number);
      }
    }
  });
});
