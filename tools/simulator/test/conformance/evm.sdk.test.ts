// The package has no exports map: its modules are imported by file.
import * as holders from '@avalabs/avacloud-sdk/models/components/index.js';
import * as c from '@avalanche-sdk/chainkit/models/components';
import * as ops from '@avalanche-sdk/chainkit/models/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../index.ts';
import { getJson, walk } from '../simHttp.ts';

/**
 * Conformance of the simulator's EVM, holder-metrics and signature-aggregation endpoints with the
 * official SDKs (a client no one here wrote): every response of every EVM chain of the tiny world is
 * parsed with the SDK's own `$inboundSchema`. Zero validation errors, except the fields listed in
 * EXCEPTIONS, where the simulator keeps the interface document over the public service on purpose.
 * The test also asserts that the public variants occurred (an ERC-1155 batch, the Granite block
 * fields, a holder sortKey above 2^64), so it cannot pass on responses that lack them.
 */

interface Exception {
  /** Dotted path of the field inside the parsed value (array indexes dropped). */
  field: RegExp;
  /** The SDK's message must match too, so only the stated difference is excused. */
  message?: RegExp;
  reason: string;
}

const EXCEPTIONS: Exception[] = [
  {
    field: /(^|\.)(price|balanceValue|currentPrice|historicalPrice)\.value$/,
    reason:
      'Money.value: the interface document sends a decimal string ("12.34"), the public service and the SDK a JSON number. ' +
      'The simulator keeps the interface (tools/simulator/README.md, docs/public-service.md); the client accepts both and keeps the exact text.',
  },
  {
    field: /(^|\.)metadata\.indexStatus$/,
    message: /received 'indexed'$/,
    reason:
      'NftTokenMetadataStatus: the public service is seen to send lower-case "indexed" beside "INDEXED" (docs/public-service.md); ' +
      'the SDK enum has upper case only. The simulator serves both spellings so the normalizers are shown to store values as-is.',
  },
];

interface Issue {
  path: PropertyKey[];
  message: string;
  /** A union that matched no member is one issue with every member's issues: zod v3 (chainkit) spells it so, */
  unionErrors?: { issues: Issue[] }[];
  /** and zod v4 (avacloud-sdk) so. */
  errors?: Issue[][];
}

interface SchemaLike {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
}

/**
 * The issues of a failed parse; a union that matched no member yields the issues of its closest
 * member, so a finding names the field, not just "Invalid input".
 */
function leafIssues(issues: Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    const members = issue.unionErrors?.map((u) => u.issues) ?? issue.errors ?? [];
    if (members.length === 0) return [issue];
    // Closest member: fewest issues, then the deepest (a member that got further into the value).
    const depth = (list: Issue[]) => Math.max(0, ...list.map((i) => i.path.length));
    const closest = members.map((m) => leafIssues(m)).sort((a, b) => a.length - b.length || depth(b) - depth(a))[0];
    return closest.length > 0 ? closest : [issue];
  });
}

interface Finding {
  endpoint: string;
  field: string;
  message: string;
}

let sim: Simulator;
const findings: Finding[] = [];
const excused = new Map<string, number>();
let parsed = 0;

/** Parses one response with an SDK schema; records each issue as a finding unless it is an excused field. */
function check(endpoint: string, schema: SchemaLike, body: unknown): void {
  parsed++;
  const result = schema.safeParse(body);
  if (result.success) return;
  for (const issue of leafIssues(result.error.issues)) {
    const field = issue.path.filter((p) => typeof p === 'string').join('.');
    const exception = EXCEPTIONS.find((e) => e.field.test(field) && (e.message?.test(issue.message) ?? true));
    if (exception) excused.set(exception.reason, (excused.get(exception.reason) ?? 0) + 1);
    else findings.push({ endpoint, field, message: issue.message });
  }
}

/** Every page of a list, each parsed with the SDK's response schema; returns the items. */
async function list(base: string, path: string, itemsKey: string, schema: SchemaLike, query: Record<string, string | number> = {}): Promise<Record<string, unknown>[]> {
  const { items, pages } = await walk(base, path, itemsKey, { pageSize: 100, ...query });
  for (const page of pages) check(path, schema, page);
  return items as Record<string, unknown>[];
}

async function get(base: string, path: string, schema: SchemaLike): Promise<Record<string, unknown>> {
  const res = await getJson(base + path);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  check(path, schema, res.body);
  return res.body;
}

interface Description {
  evm: {
    chains: { chainId: string }[];
    addresses: string[];
    contracts: { chainId: string; address: string; ercType: string }[];
    nfts: { chainId: string; address: string; tokenId: string }[];
  };
}

// What the walks saw, for the variant assertions.
const seen = { graniteBlocks: 0, plainBlocks: 0, batchEntries: 0, batchInDetail: 0, bigSortKeys: 0, signed: 0 };

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, size: 'tiny' });
});

afterAll(async () => {
  await sim?.close();
});

describe('EVM endpoints parse with the official SDK schemas', () => {
  it('every endpoint of every EVM chain, holder metrics and signature aggregation', async () => {
    const { evm } = sim.world.describe() as unknown as Description;
    const base = sim.baseUrl;
    for (const { chainId } of evm.chains) {
      const chain = `/v1/chains/${chainId}`;
      for (const b of await list(base, `${chain}/blocks`, 'blocks', c.ListEvmBlocksResponse$inboundSchema)) {
        if (b.blockTimestampMilliseconds !== undefined && b.blockMinDelayExcess !== undefined) seen.graniteBlocks++;
        else seen.plainBlocks++;
      }
      const txs = await list(base, `${chain}/transactions`, 'transactions', c.ListNativeTransactionsResponse$inboundSchema);
      await list(base, `${chain}/transactions`, 'transactions', c.ListNativeTransactionsResponse$inboundSchema, { status: 'failed' });
      for (const address of evm.addresses.slice(0, 4)) {
        const a = `${chain}/addresses/${address}`;
        await list(base, `${a}/transactions:listNative`, 'transactions', c.ListNativeTransactionsResponse$inboundSchema);
        await get(base, `${a}/balances:getNative`, c.GetNativeBalanceResponse$inboundSchema);
        await list(base, `${a}/balances:listErc20`, 'erc20TokenBalances', c.ListErc20BalancesResponse$inboundSchema, { filterSpamTokens: 'false' });
        await list(base, `${a}/balances:listErc721`, 'erc721TokenBalances', c.ListErc721BalancesResponse$inboundSchema);
        await list(base, `${a}/balances:listErc1155`, 'erc1155TokenBalances', c.ListErc1155BalancesResponse$inboundSchema);
      }
      const contracts = evm.contracts.filter((k) => k.chainId === chainId);
      expect(contracts.map((k) => k.ercType).sort()).toEqual(expect.arrayContaining(['ERC-1155', 'ERC-20', 'ERC-721']));
      for (const contract of contracts) {
        const transfers = await list(base, `${chain}/tokens/${contract.address}/transfers`, 'transfers', c.ListTransfersResponse$inboundSchema);
        const perLog = new Map<string, number>();
        for (const t of transfers) perLog.set(`${String(t.txHash)}#${String(t.logIndex)}`, (perLog.get(`${String(t.txHash)}#${String(t.logIndex)}`) ?? 0) + 1);
        if (contract.ercType === 'ERC-1155') seen.batchEntries += [...perLog.values()].filter((n) => n > 1).reduce((s, n) => s + n, 0);
        for (const h of await list(sim.metricsUrl, `/v2/chains/${chainId}/contracts/${contract.address}/balances`, 'addresses', holders.LookingGlassResponse$inboundSchema, { threshold: '0' })) {
          if (BigInt(String(h.sortKey)) >= 2n ** 64n) seen.bigSortKeys++;
        }
      }
      // Details of every contract call (they carry the transfers) and of every tenth other transaction.
      const contractSet = new Set(contracts.map((k) => k.address));
      for (const [i, tx] of txs.entries()) {
        const to = (tx.to as { address?: string } | undefined)?.address ?? '';
        if (!contractSet.has(to) && i % 10 !== 0) continue;
        const detail = await get(base, `${chain}/transactions/${String(tx.txHash)}`, c.GetTransactionResponse$inboundSchema);
        const logs = ((detail.erc1155Transfers as { logIndex: number }[] | undefined) ?? []).map((t) => t.logIndex);
        if (new Set(logs).size < logs.length) seen.batchInDetail++;
      }
      for (const nft of evm.nfts.filter((n) => n.chainId === chainId)) {
        await get(base, `${chain}/nfts/collections/${nft.address}/tokens/${nft.tokenId}`, ops.GetTokenDetailsResponse$inboundSchema);
      }
    }

    // Signature aggregation: a justification signed by the validators of the first L1 that can reach quorum.
    const pTxs = (await sim.groundTruth('GET', '/v1/networks/mainnet/blockchains/p-chain/transactions', {})) as { txType: string; subnetId?: string }[];
    for (const subnetId of new Set(pTxs.filter((t) => t.txType === 'ConvertSubnetToL1Tx').map((t) => t.subnetId!))) {
      const res = await fetch(`${base}/v1/signatureAggregator/mainnet/aggregateSignatures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ justification: 'abcdef', signingSubnetId: subnetId }),
      });
      const body: unknown = await res.json();
      if (res.status === 503) continue; // offline validators hold too much weight: a documented answer, not a shape
      // The interface document answers 200; the SDK's operation expects 201. The body is the same schema.
      expect(res.status).toBe(200);
      check('aggregateSignatures', c.SignatureAggregationResponse$inboundSchema, body);
      seen.signed++;
      break;
    }

    const distinct = [...new Map(findings.map((f) => [`${f.field}: ${f.message}`, f])).values()];
    expect(distinct, JSON.stringify(distinct, null, 1)).toEqual([]);
    // The variants were served, so the parse above judged them.
    expect(parsed).toBeGreaterThan(100);
    expect(seen.graniteBlocks).toBeGreaterThan(0);
    expect(seen.plainBlocks).toBeGreaterThan(0);
    expect(seen.batchEntries).toBeGreaterThan(0);
    expect(seen.batchInDetail).toBeGreaterThan(0);
    expect(seen.bigSortKeys).toBeGreaterThan(0);
    expect(seen.signed).toBe(1);
    // Every exception is used: a stale entry would hide nothing and mislead.
    for (const e of EXCEPTIONS) expect(excused.get(e.reason) ?? 0, e.reason).toBeGreaterThan(0);
  });
});
