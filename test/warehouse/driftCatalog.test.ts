import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiClient } from '../../activities/api/index.ts';
import { parseJsonLossless } from '../../activities/api/losslessJson.ts';
import { ENUMERATIONS } from '../../activities/api/schemas/index.ts';
import { STREAMS, STREAM_NAMES, allTables } from '../../activities/streams/catalog.ts';
import type { FieldNode } from '../../activities/streams/unmapped.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { configForWorld } from '../../cli/demoConfig.ts';
import type { StreamName } from '../../common/streamNames.ts';
import { createLogger } from '../../worker/logger.ts';
import { runWaves, startHarness, truth, type Harness } from './harness.ts';

/**
 * Issue 40: the API drifts under every stream of the catalog (tools/simulator/http/drift.ts, from the
 * first step): every item and every resource of a get gains unknown fields at its top level (one
 * holding an integer beyond 2^64) and in a nested object, every entry of a list inside it gains one,
 * and every enumeration of the interface takes a new value on some items. Generated over the stream
 * catalog and the declared enumerations: a stream or an enumeration added later is covered too.
 */
const SNAPSHOT = 1_800_000_000;

/** `stream path value` of every value the drift injected into `value`: the leaves under a key named drift*, by their path from that key. */
function injected(value: unknown, stream: string, out: Set<string>, path?: string): Set<string> {
  if (value === null || value === undefined) return out;
  if (typeof value !== 'object') {
    if (path !== undefined) out.add(`${stream} ${path} ${String(value)}`);
  } else if (Array.isArray(value)) {
    for (const v of value) injected(v, stream, out, path);
  } else {
    for (const [k, v] of Object.entries(value)) injected(v, stream, out, path !== undefined ? `${path}.${k}` : k.startsWith('drift') ? k : undefined);
  }
  return out;
}

describe('schema drift under every stream of the catalog', () => {
  let h: Harness;
  /** What the pipeline received, per stream (the partition id names it): the validated responses. */
  const received = new Map<string, unknown[]>();

  beforeAll(async () => {
    h = await startHarness({
      sim: { drift: { fromStep: 0, typeChanges: false } },
      config: async (sim) => {
        const world = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: '/unused' });
        // Every table gets rows: an address holding ERC-1155 tokens, a transaction of each token contract (its transfers' tables),
        // transactions with a teleporter message.
        const evmChains = await Promise.all(
          world.evmChains.map(async (c) => {
            const holds = async (address: string) => (await truth(sim, `/v1/chains/${c.chainId}/addresses/${address}/balances:listErc1155`)).length > 0;
            const all = (sim.world.describe().evm as unknown as { addresses: string[] }).addresses;
            let holder: string | undefined;
            for (const a of all) if (holder === undefined && (await holds(a))) holder = a;
            const transfers = await Promise.all(c.contracts.map(async (a) => (await truth(sim, `/v1/chains/${c.chainId}/tokens/${a}/transfers`)).map((t) => String(t.txHash))));
            // Teleporter messages are rare (a tenth of token transactions): enough of them that some take a new direction.
            const teleporter: string[] = [];
            for (const tx of [...new Set(transfers.flat())]) {
              if (teleporter.length >= 8) break;
              if ((await truth(sim, `/v1/chains/${c.chainId}/transactions/${tx}`))[0].teleporterMessageInfo) teleporter.push(tx);
            }
            return {
              ...c,
              addresses: [...new Set([...c.addresses, ...(holder ? [holder] : [])])],
              transactions: [...new Set([...c.transactions, ...transfers.map((t) => t[0]).filter((t) => t !== undefined), ...teleporter])],
            };
          }),
        );
        return { streams: [...STREAM_NAMES], networks: world.networks, evmChains };
      },
    });
    // The responses the sync core's walks get, recorded on their way in.
    const recording = {
      ...h.client,
      async call(endpoint: never, params: never, options?: { partition?: string }) {
        const response = await h.client.call(endpoint, params, options);
        const stream = options?.partition?.split('/')[0];
        if (stream !== undefined) received.set(stream, [...(received.get(stream) ?? []), response]);
        return response;
      },
    } as DataApiClient;
    const core = createSyncCore({ client: recording, warehouse: h.warehouse, config: h.config, logger: createLogger({ level: 'silent' }) });
    await runWaves({ ...h, core }, 'backfill', 'r1', SNAPSHOT);
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  it('keeps every injected value of every stream in the _extra of a row of its tables (or inside a JSON column that holds the object whole)', async () => {
    const report: Record<string, { injected: number; lost: string[] }> = {};
    for (const name of STREAM_NAMES) {
      const expected = new Set<string>();
      for (const response of received.get(name) ?? []) injected(response, name, expected);
      const kept = new Set<string>();
      for (const table of STREAMS[name].tables) {
        const json = table.columns.filter((c) => c.type === 'JSON').map((c) => c.name);
        for (const row of await h.warehouse.query(`SELECT ${json.map((c) => `CAST("${c}" AS VARCHAR) AS "${c}"`).join(', ')} FROM "${table.name}"`)) {
          for (const c of json) if (row[c] !== null) injected(parseJsonLossless(String(row[c])), name, kept);
        }
      }
      report[name] = { injected: expected.size, lost: [...expected].filter((v) => !kept.has(v)).slice(0, 5) };
    }
    // Every stream was sent drift, and kept all of it.
    const failing = Object.entries(report).filter(([, r]) => r.injected === 0 || r.lost.length > 0);
    expect(Object.fromEntries(failing)).toEqual({});
  });

  it('every table of the catalog holds rows, and its rows keep their own unmapped fields (the big integer exact)', async () => {
    const empty: string[] = [];
    for (const table of allTables()) {
      const [row] = await h.warehouse.query(`SELECT count(*) AS n FROM "${table.name}"`);
      if (Number(row.n) === 0) empty.push(table.name);
    }
    expect(empty).toEqual([]);
    const big = (await h.warehouse.query(`SELECT CAST(_extra AS VARCHAR) AS extra FROM metrics_holders WHERE _extra IS NOT NULL LIMIT 1`))[0];
    const detail = (parseJsonLossless(String(big.extra)) as { driftDetail: { big: string } }).driftDetail;
    expect(BigInt(detail.big)).toBeGreaterThan(1n << 64n);
  });

  it('records a new value of every declared enumeration as new_enum_value, stored as sent', async () => {
    const drift = await h.warehouse.listDrift();
    const seen = new Set(drift.filter((d) => d.kind === 'new_enum_value').map((d) => `${d.stream} ${d.path.slice(0, d.path.indexOf('='))}`));
    for (const [enumeration, values] of Object.entries(ENUMERATIONS)) {
      // The fields of every stream declared with this enumeration.
      const fields: string[] = [];
      const walk = (n: FieldNode, stream: StreamName) => {
        if (n.known !== undefined && n.known.size === values.length && values.every((v) => n.known!.has(v))) fields.push(`${stream} ${n.path}`);
        for (const f of n.fields.values()) walk(f, stream);
        if (n.element) walk(n.element, stream);
      };
      for (const name of STREAM_NAMES) walk(STREAMS[name].fields(), name);
      expect({ enumeration, declared: fields.length > 0, recorded: fields.some((f) => seen.has(f)) }).toEqual({ enumeration, declared: true, recorded: true });
    }
  });
});
