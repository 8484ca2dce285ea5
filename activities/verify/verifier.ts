import { endpoints } from '../api/endpoints/index.ts';
import type { VerifyFinding, VerifyPort } from '../ports.ts';
import type { StreamClient } from '../streams/streamDef.ts';
import { CHAIN_LIST, type DriftRow, type Warehouse } from '../warehouse/warehouse.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';
import type { ResolvedConfig } from '../../common/config.ts';
import type { Logger } from '../../common/logger.ts';
import type { StreamName } from '../../common/streamNames.ts';
import type { PartitionSpec } from '../sync/types.ts';
import { utxoBalanceFindings } from './utxoBalances.ts';
import { keyUniquenessFinding } from './keyUniqueness.ts';
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

    for (const range of ranges) {
      const chainId = String(range.chain_id);
      try {
        const head = await client.call(endpoints.evm.listBlocks, { chainId, pageSize: 1 });
        const apiHead = head.blocks[0] ? BigInt(head.blocks[0].blockNumber) : 0n;
        const stored = BigInt(range.last_block as bigint);
        findings.push({
          check: `evm_blocks ${chainId}: stored head against the API`,
          ok: stored <= apiHead,
          detail: `API head ${apiHead}, stored head ${stored}, ${apiHead - stored} block(s) behind`,
        });
      } catch (error) {
        findings.push({ check: `evm_blocks ${chainId}: stored head against the API`, ok: false, detail: `API unreachable: ${(error as Error).message}` });
      }
    }

    if (enabled(streams, 'evm.transactions')) {
      const mismatched = await warehouse.query(sqlFile('verify/blockTxCounts.sql'));
      findings.push({
        check: 'evm_blocks.tx_count matches stored transactions',
        ok: mismatched.length === 0,
        detail: mismatched.length ? `differs at ${list(mismatched, (m) => `${m.chain_id}:${m.block_number} (${m.tx_count} vs ${m.stored_txs})`)}` : 'every covered block matches',
      });
    }
  }

  return {
    async verify({ streams, scope }) {
      const findings: VerifyFinding[] = [];
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
      findings.push(await keyUniquenessFinding(warehouse, [...tables.values()]));
      await blockChecks(findings, streams);
      findings.push(...driftWarnings(await warehouse.listDrift(), streams ?? config.streams));
      if (enabled(streams, 'pn.balances') && enabled(streams, 'pn.utxos')) findings.push(...(await utxoBalanceFindings(warehouse)));
      deps.logger.info({ checks: findings.length, problems: findings.filter((f) => !f.ok).length }, 'verify finished');
      return findings;
    },
  };
}
