import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyFinding } from '../../activities/ports.ts';
import { createVerifier } from '../../activities/verify/verifier.ts';
import { createLogger } from '../../worker/logger.ts';
import { truthClient } from '../helpers/truthTables.ts';
import { drainAll, firstChainId, startHarness, type Harness } from './harness.ts';

/**
 * verify --changed (nightly) checks what commits changed since the last verify without problems: it
 * catches a problem planted in the blocks a night committed, ignores one planted in untouched history
 * (the full verify, run on its slower cadence, catches that), and keeps reporting a problem until a
 * verify passes.
 */

let h: Harness;
let chainId: string;
const streams = ['evm.blocks', 'evm.transactions'];

const verify = (mode: 'full' | 'changed') =>
  createVerifier({ warehouse: h.warehouse, client: truthClient(h.sim), config: h.config, logger: createLogger({ level: 'silent' }), planPartitions: (input) => h.core.planPartitions(input) }).verify({ mode });
const problems = (findings: VerifyFinding[]) => findings.filter((f) => !f.ok).map((f) => `${f.check}: ${f.detail}`);
const scope = (findings: VerifyFinding[]) => findings.find((f) => f.check === 'verify: scope')?.detail ?? '';
const run = (sql: string) => h.warehouse.withWriter((c) => c.run(sql));

async function night(runId: string) {
  h.sim.advance(20);
  await drainAll(h, streams, { runId, mode: 'sync', snapshotAt: 1_800_000_000 });
}

beforeAll(async () => {
  h = await startHarness({ sim: { size: 'small' }, config: (sim) => ({ streams, evmChains: [{ chainId: firstChainId(sim) }] }) });
  chainId = firstChainId(h.sim);
  await drainAll(h, streams, { runId: 'backfill', mode: 'backfill' });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('nightly verify', () => {
  it('runs in full the first time, then covers the changed blocks only', async () => {
    const first = await verify('changed');
    expect(problems(first)).toEqual([]);
    expect(scope(first)).toBe('every row (full)');
    await night('n1');
    const second = await verify('changed');
    expect(problems(second)).toEqual([]);
    expect(scope(second)).toMatch(/^changed since/);
    expect(second.find((f) => f.check.startsWith('evm_blocks: changed blocks'))!.detail).toMatch(new RegExp(`${chainId}: blocks \\d+\\.\\.\\d+`));
  }, 120_000);

  it('catches a broken parent link and a missing transaction among the blocks the night committed', async () => {
    await night('n2');
    const [{ hi }] = await h.warehouse.query(`SELECT max(block_number) AS hi FROM evm_blocks WHERE chain_id = '${chainId}'`);
    const [tx] = await h.warehouse.query(`SELECT block_number, tx_hash FROM evm_transactions WHERE chain_id = '${chainId}' ORDER BY block_number DESC LIMIT 1`);
    await run(`CREATE TABLE saved_block AS SELECT * FROM evm_blocks WHERE chain_id = '${chainId}' AND block_number = ${String(hi)} - 1`);
    await run(`CREATE TABLE saved_tx AS SELECT * FROM evm_transactions WHERE chain_id = '${chainId}' AND tx_hash = '${String(tx.tx_hash)}'`);
    await run(`UPDATE evm_blocks SET parent_hash = '0xplanted' WHERE chain_id = '${chainId}' AND block_number = ${String(hi)} - 1`);
    await run(`DELETE FROM evm_transactions WHERE chain_id = '${chainId}' AND tx_hash = '${String(tx.tx_hash)}'`);
    const found = problems(await verify('changed'));
    expect(found.some((p) => p.startsWith('evm_blocks: changed blocks') && p.includes(`broken link at ${BigInt(hi as bigint) - 1n}`))).toBe(true);
    expect(found.some((p) => p.startsWith('evm_blocks.tx_count matches stored transactions (changed blocks)') && p.includes(`${chainId}:${String(tx.block_number)}`))).toBe(true);
    // The problem keeps the watermark where it was: the next nightly verify reports it again.
    expect(problems(await verify('changed')).length).toBe(found.length);
    // Repaired, the nightly verify passes.
    await run(`UPDATE evm_blocks SET parent_hash = (SELECT parent_hash FROM saved_block) WHERE chain_id = '${chainId}' AND block_number = ${String(hi)} - 1`);
    await run(`INSERT INTO evm_transactions SELECT * FROM saved_tx`);
    expect(problems(await verify('changed'))).toEqual([]);
  }, 120_000);

  it('leaves a problem in untouched history to the full verify', async () => {
    // A block of the oldest day, which no night touches (the world's history spans days).
    const [{ lo, oldest, newest }] = await h.warehouse.query(
      `SELECT min(block_number) AS lo, min(block_timestamp) // 86400 AS oldest, max(block_timestamp) // 86400 AS newest FROM evm_blocks WHERE chain_id = '${chainId}'`,
    );
    expect(Number(newest)).toBeGreaterThan(Number(oldest));
    const middle = BigInt(lo as bigint) + 1n;
    await run(`DELETE FROM evm_blocks WHERE chain_id = '${chainId}' AND block_number = ${middle}`);
    await night('n3');
    expect(problems(await verify('changed'))).toEqual([]);
    const full = problems(await verify('full'));
    expect(full.some((p) => p.startsWith('evm_blocks: no gaps') && p.includes(`${chainId}:${middle}-${middle}`))).toBe(true);
  }, 120_000);
});
