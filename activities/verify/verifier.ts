import { endpoints } from '../api/endpoints/index.ts';
import type { VerifyFinding, VerifyPort } from '../ports.ts';
import type { StreamClient } from '../streams/streamDef.ts';
import { CHAIN_LIST, type DriftRow, type Warehouse } from '../warehouse/warehouse.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { Logger } from '../../common/logger.ts';
import type { StreamName } from '../../common/streamNames.ts';
import type { PartitionSpec } from '../../common/activityTypes.ts';
import { utxoBalanceFindings } from './utxoBalances.ts';
import { changedKeyUniquenessFinding, keyUniquenessFinding } from './keyUniqueness.ts';
import { partitionsFilter, valuesOfKey } from '../warehouse/lakeKeys.ts';
import { tableByName } from '../streams/catalog.ts';
import { STREAMS } from '../streams/catalog.ts';

export interface VerifierDeps {
  warehouse: Warehouse;
  client: StreamClient;
  config: ResolvedConfig;
  logger: Logger;
  /** The partitions the config asks for (the sync core's planner), to spot ones never synced. */
  planPartitions(input: { streams?: StreamName[] }): Promise<PartitionSpec[]>;
}

const list = (rows: Record<string, unknown>[], fmt: (r: Record<string, unknown>) => string) => rows.map(fmt).join(', ');

/** Schema drift as warnings (never failures): one per stream, naming each change, its count and last run. */
export function driftWarnings(drift: readonly DriftRow[], streams: readonly string[]): VerifyFinding[] {
  const byStream = new Map<string, DriftRow[]>();
  for (const d of drift) if (d.stream === CHAIN_LIST || streams.includes(d.stream)) byStream.set(d.stream, [...(byStream.get(d.stream) ?? []), d]);
  return [...byStream].map(([stream, rows]) => ({
    check: `schema drift: ${stream}`,
    ok: true,
    warning: true,
    detail: rows.map((d) => `${d.kind} ${d.path} (${d.count}x, last run ${d.lastRun}${d.sample ? `, e.g. ${d.sample}` : ''})`).join('; '),
  }));
}

/**
 * Completeness and consistency checks over the warehouse, some against the live API:
 * unfinished partitions, finished snapshot walks missing from _glacier_snapshot_walks, keys stored more than once, gaps and broken parent links in block ranges, block txCount against the
 * stored transactions, the stored head against the API head, and primary-network balances recomputed
 * from stored UTXOs against the balances endpoint's snapshot.
 */
export function createVerifier(deps: VerifierDeps): VerifyPort {
  const { warehouse, client, config } = deps;
  const enabled = (streams: StreamName[] | undefined, name: StreamName) => (streams ?? config.streams).includes(name) && config.streams.includes(name);

  /** Per chain, the stored head and the checks over every block (full verify). */
  async function blockChecks(findings: VerifyFinding[], streams: StreamName[] | undefined): Promise<void> {
    if (!enabled(streams, 'evm.blocks')) return;
    const ranges = await warehouse.query(sqlFile('verify/blockRanges.sql'));
    const gaps = await warehouse.query(sqlFile('verify/blockGaps.sql'));
    findings.push({
      check: 'evm_blocks: no gaps',
      ok: gaps.length === 0,
      detail: gaps.length
        ? `missing ${list(gaps, (g) => `${g.chain_id}:${g.gap_from}-${g.gap_to}`)}`
        : ranges.length
          ? list(ranges, (r) => `${r.chain_id}: blocks ${r.first_block}..${r.last_block} (${r.blocks})`)
          : 'no blocks stored',
    });
    const links = await warehouse.query(sqlFile('verify/blockParentLinks.sql'));
    findings.push({ check: 'evm_blocks: parent hashes link up', ok: links.length === 0, detail: links.length ? `broken at ${list(links, (l) => `${l.chain_id}:${l.block_number}`)}` : 'every adjacent pair links' });
    await headChecks(findings, ranges.map((r) => ({ chainId: String(r.chain_id), head: BigInt(r.last_block as bigint) })));

    if (enabled(streams, 'evm.transactions')) {
      const mismatched = await warehouse.query(sqlFile('verify/blockTxCounts.sql'));
      findings.push({
        check: 'evm_blocks.tx_count matches stored transactions',
        ok: mismatched.length === 0,
        detail: mismatched.length ? `differs at ${list(mismatched, (m) => `${m.chain_id}:${m.block_number} (${m.tx_count} vs ${m.stored_txs})`)}` : 'every covered block matches',
      });
    }
  }

  async function headChecks(findings: VerifyFinding[], heads: { chainId: string; head: bigint }[]): Promise<void> {
    for (const { chainId, head: stored } of heads) {
      try {
        const head = await client.call(endpoints.evm.listBlocks, { chainId, pageSize: 1 });
        const apiHead = head.blocks[0] ? BigInt(head.blocks[0].blockNumber) : 0n;
        findings.push({
          check: `evm_blocks ${chainId}: stored head against the API`,
          ok: stored <= apiHead,
          detail: `API head ${apiHead}, stored head ${stored}, ${apiHead - stored} block(s) behind`,
        });
      } catch (error) {
        findings.push({ check: `evm_blocks ${chainId}: stored head against the API`, ok: false, detail: `API unreachable: ${(error as Error).message}` });
      }
    }
  }

  /**
   * Nightly block checks: per chain, the window of block numbers in the evm_blocks partitions commits
   * changed, checked with its stored neighbours (sql/verify/changed/), so the cost follows the new blocks.
   */
  async function changedBlockChecks(findings: VerifyFinding[], streams: StreamName[] | undefined, changed: { table: string; key: string }[]): Promise<void> {
    if (!enabled(streams, 'evm.blocks')) return;
    const def = tableByName('evm_blocks')!;
    const windows = new Map<string, { lo: bigint; hi: bigint }>();
    for (const c of changed) {
      if (c.table !== 'evm_blocks') continue;
      const values = valuesOfKey(def, c.key);
      if (!values || values[0] === null) continue;
      const { where, params } = partitionsFilter(def, [values]);
      const [span] = await warehouse.query(sqlFile('verify/changed/blockSpan.sql').replace('{filter}', where), params);
      if (span.lo === null || span.lo === undefined) continue;
      const w = windows.get(values[0]);
      const lo = BigInt(span.lo as bigint);
      const hi = BigInt(span.hi as bigint);
      windows.set(values[0], w ? { lo: lo < w.lo ? lo : w.lo, hi: hi > w.hi ? hi : w.hi } : { lo, hi });
    }
    const problems: string[] = [];
    const mismatched: string[] = [];
    for (const [chainId, { lo, hi }] of windows) {
      for (const p of await warehouse.query(sqlFile('verify/changed/blockWindow.sql'), [chainId, lo, hi])) problems.push(`${chainId}: ${p.problem === 'gap' ? `missing ${p.from_block}-${p.to_block}` : `broken link at ${p.from_block}`}`);
      if (enabled(streams, 'evm.transactions')) {
        for (const m of await warehouse.query(sqlFile('verify/changed/blockTxCounts.sql'), [chainId, lo, hi])) mismatched.push(`${chainId}:${m.block_number} (${m.tx_count} vs ${m.stored_txs})`);
      }
    }
    const detail = [...windows].map(([c, w]) => `${c}: blocks ${w.lo}..${w.hi}`).join(', ') || 'no blocks changed';
    findings.push({ check: 'evm_blocks: changed blocks have no gaps and link to their neighbours', ok: problems.length === 0, detail: problems.length ? problems.slice(0, 20).join(', ') : detail });
    if (enabled(streams, 'evm.transactions')) {
      findings.push({ check: 'evm_blocks.tx_count matches stored transactions (changed blocks)', ok: mismatched.length === 0, detail: mismatched.length ? `differs at ${mismatched.slice(0, 20).join(', ')}` : detail });
    }
    await headChecks(findings, [...windows].map(([chainId, w]) => ({ chainId, head: w.hi })));
  }

  return {
    async verify({ streams, scope, mode }) {
      const findings: VerifyFinding[] = [];
      // What this verify covers: every change committed up to now. A nightly verify starts at the
      // watermark of the last verify without problems; without one it runs in full. Commits mark from now on.
      await warehouse.startChangeMarks();
      const [{ seq: currentSeq, now }] = await warehouse.query(sqlFile('verify/changed/currentSeq.sql'));
      const [mark] = mode === 'changed' ? await warehouse.query(sqlFile('verify/changed/watermark.sql')) : [];
      const since = mark ? { seq: BigInt(mark.seq as bigint), at: Number(mark.verified_at) } : undefined;
      const changed = since ? (await warehouse.query(sqlFile('verify/changed/changedPartitions.sql'), [since.seq])).map((r) => ({ table: String(r.table_name), key: String(r.partition_key) })) : [];
      const incomplete = await warehouse.query(sqlFile('verify/incompletePartitions.sql'));
      const checkpoints = await warehouse.listCheckpoints();
      const total = checkpoints.length;
      const synced = new Set(checkpoints.map((c) => c.partitionId));
      // A shard holds only its share: the check over every configured partition spans all shards.
      if (scope !== 'shard') {
        const missing = (await deps.planPartitions({ streams })).filter((p) => !synced.has(p.id));
        findings.push({
          check: 'partitions: every configured partition synced',
          ok: missing.length === 0,
          detail: missing.length ? `never synced: ${missing.map((p) => p.id).join(', ')}` : 'all configured partitions have a checkpoint',
        });
      }
      findings.push({
        check: 'partitions: every walk finished',
        ok: incomplete.length === 0 && (total > 0 || scope === 'shard'),
        detail: total === 0 ? 'nothing synced yet' : incomplete.length ? `unfinished: ${list(incomplete, (p) => String(p.partition_id))}` : `${total} partitions complete`,
      });
      const unrecorded = await warehouse.query(sqlFile('verify/unrecordedSnapshotWalks.sql'));
      findings.push({
        check: 'snapshot walks: every finished walk is recorded (latest views read it)',
        ok: unrecorded.length === 0,
        detail: unrecorded.length ? `not recorded: ${list(unrecorded, (w) => `${w.partition_id}@${w.snapshot_at}`)}` : 'every finished snapshot walk is recorded',
      });
      const tables = new Map((streams ?? config.streams).filter((s) => enabled(streams, s)).flatMap((s) => STREAMS[s].tables.map((t) => [t.name, t] as const)));
      if (since) {
        findings.push(await changedKeyUniquenessFinding(warehouse, [...tables.values()], changed));
        await changedBlockChecks(findings, streams, changed);
      } else {
        findings.push(await keyUniquenessFinding(warehouse, [...tables.values()]));
        await blockChecks(findings, streams);
      }
      findings.push(...driftWarnings(await warehouse.listDrift(), streams ?? config.streams));
      if (enabled(streams, 'pn.balances') && enabled(streams, 'pn.utxos')) findings.push(...(await utxoBalanceFindings(warehouse, since?.at ?? 0)));
      const problems = findings.filter((f) => !f.ok).length;
      // A verify without problems moves the watermark; one with problems leaves it, so tomorrow's reports them again.
      if (problems === 0 && !streams) await warehouse.withWriter((w) => w.run(sqlFile('verify/changed/advanceWatermark.sql'), [BigInt(currentSeq as bigint), Number(now)]));
      if (mode === 'changed') findings.unshift({
        check: 'verify: scope',
        ok: true,
        detail: since ? `changed since the last verify without problems (${new Date(since.at * 1000).toISOString()}): ${changed.length} partitions` : 'every row (full)',
      });
      deps.logger.info({ checks: findings.length, problems, mode: since ? 'changed' : 'full', changedPartitions: changed.length }, 'verify finished');
      return findings;
    },
  };
}
