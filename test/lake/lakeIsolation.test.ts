import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import { exportLake } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { lakeOf } from '../../worker/paths.ts';
import { differing, lakeDifferences, readLakeElsewhere } from '../helpers/lakeCompare.ts';
import { runNode } from '../helpers/runCli.ts';
import { runWaves, startHarness, type Harness } from '../warehouse/harness.ts';

/**
 * A night is one lake transaction. A reader that holds the lake open in another process sees the
 * previous night on every table until the export commits, then the new one, never a mix; a reader
 * inside one transaction keeps its snapshot. An export killed (SIGKILL) at any moment leaves the lake
 * at the previous night or the new one, whole, and the next export makes it equal the warehouse.
 */

const TABLES = ['evm_blocks', 'evm_transactions', 'pn_transactions', 'pn_transaction_utxos', 'pn_utxos', 'evm_erc20_balances', '_glacier_snapshot_walks'];
const tsx = import.meta.resolve('tsx');
const helper = (name: string) => new URL(`../helpers/${name}`, import.meta.url).pathname;

let h: Harness;
let lake: LakeSettings;
let scratch: string;

type State = Record<string, string>;

/** A reader process: its lines, and a way to stop it (watch, hold) and wait for its end. */
function reader(mode: 'once' | 'watch' | 'hold'): { lines: State[]; errors: string[]; ready: Promise<void>; stop: () => Promise<void> } {
  const stopFile = join(scratch, `stop-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, ['--import', tsx, helper('lakeWatcher.ts'), JSON.stringify(lake), TABLES.join(','), mode, stopFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: State[] = [];
  const errors: string[] = [];
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') return ready();
    const parsed = JSON.parse(line) as State & { error?: string };
    if (parsed.error) errors.push(parsed.error);
    else lines.push(parsed);
  });
  const ended = new Promise<void>((r) => child.on('close', () => r()));
  return { lines, errors, ready: readyP, stop: async () => (writeFileSync(stopFile, ''), await ended) };
}

async function readOnce(): Promise<State> {
  const r = reader('once');
  await r.stop();
  expect(r.lines).toHaveLength(1);
  return r.lines[0];
}

const same = (a: State, b: State) => TABLES.every((t) => a[t] === b[t]);

async function night(runId: string, snapshotAt: number) {
  h.sim.advance(60);
  await runWaves(h, 'sync', runId, snapshotAt);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'glacier-lake-isolation-'));
  h = await startHarness({
    sim: { size: 'tiny' },
    config: (sim) => {
      const evm = sim.world.describe().evm as unknown as { chains: { chainId: string }[]; addresses: string[]; contracts: { chainId: string; address: string }[] };
      const chainId = evm.chains[0].chainId;
      const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
      return {
        streams: ['evm.blocks', 'evm.transactions', 'evm.erc20_balances', 'pn.transactions', 'pn.utxos'],
        evmChains: [{ chainId, addresses: evm.addresses.slice(0, 2), contracts: evm.contracts.filter((c) => c.chainId === chainId).map((c) => c.address) }],
        networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 4) }],
      };
    },
  });
  lake = lakeOf(h.config);
  await runWaves(h, 'backfill', 'b', 1);
  await exportLake(h.warehouse, allTables(), lake);
}, 300_000);

afterAll(async () => {
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a night is one lake transaction', () => {
  it('a reader holding the lake open sees the previous night on every table until the commit, then the new one; a reader’s transaction keeps its snapshot', async () => {
    await night('n1', 10);
    const watcher = reader('watch');
    const holder = reader('hold');
    await Promise.all([watcher.ready, holder.ready]);
    await new Promise((r) => setTimeout(r, 300));
    // Slowed down between tables, so the readers read while the night is half applied.
    const r = await exportLake(h.warehouse, allTables(), lake, { hook: async (step) => void (step.startsWith('table:') && (await new Promise((res) => setTimeout(res, 150)))) });
    expect(r.tables).toBeGreaterThan(0);
    await new Promise((res) => setTimeout(res, 300));
    await Promise.all([watcher.stop(), holder.stop()]);
    const before = watcher.lines[0];
    const after = watcher.lines.at(-1)!;
    expect(TABLES.filter((t) => before[t] !== after[t]).length, 'tables the night changed').toBeGreaterThan(3);
    // Every read is the previous night or the new one, whole; once the new one, never the previous again.
    const kinds = watcher.lines.map((l) => (same(l, before) ? 'before' : same(l, after) ? 'after' : JSON.stringify(l)));
    expect(kinds.filter((k) => k !== 'before' && k !== 'after'), `before ${JSON.stringify(before)}, after ${JSON.stringify(after)}, sequence ${kinds.map((k) => k.slice(0, 6)).join(' ')}`).toEqual([]);
    expect(kinds.lastIndexOf('before')).toBeLessThan(kinds.indexOf('after'));
    expect(kinds.filter((k) => k === 'before').length, 'reads during the export').toBeGreaterThan(5);
    // The transaction opened before the export reads its snapshot after the commit too.
    expect(holder.lines).toHaveLength(2);
    expect(same(holder.lines[0], before) && same(holder.lines[1], before)).toBe(true);
    console.log(`reader: ${kinds.length} reads (${kinds.filter((k) => k === 'before').length} of the previous night, ${kinds.filter((k) => k === 'after').length} of the new one), ${watcher.errors.length} retried (${[...new Set(watcher.errors)].join('; ')})`);
  }, 300_000);

  it('an export killed at any moment leaves a whole night, and the next export makes the lake equal the warehouse', async () => {
    await night('n2', 20);
    const before = await readOnce();
    const path = h.warehouse.path;
    await h.warehouse.close();
    const outcomes: string[] = [];
    try {
      // Named points of the export, then moments at random; the commit's point last (the lake holds the night from then on).
      const points: (string | number)[] = ['attached', 'maintained', 'table:evm_blocks', 'table:pn_transaction_utxos', 'table:_glacier_snapshot_walks', 'before-commit', 800, 1500, 2500, 'committed', 'cleared'];
      let after: State | undefined;
      let finished = false;
      for (const point of points) {
        const args = ['--import', tsx, helper('lakeExporter.ts'), path, JSON.stringify(lake), ...(typeof point === 'string' ? [point] : [])];
        if (typeof point === 'string') {
          const r = await runNode(args, { timeoutMs: 240_000 });
          // A timed kill that came after the whole export (a fast machine) left nothing marked: this export has no step to die at.
          if (finished && r.code === 0 && r.stdout.includes('"attempts":0')) {
            outcomes.push(`${point}: nothing left to export`);
            continue;
          }
          expect(r.code, `${point}: ${r.stderr}`).toBeNull(); // killed by its own SIGKILL
          expect(r.stdout).toContain(`step ${point}`);
        } else finished ||= (await runNode(args, { timeoutMs: point })).stdout.includes('step cleared'); // SIGKILLed after `point` ms (or done before)
        const state = await readOnce();
        // The first state that is not the previous night is the new one: every later one must be it.
        if (!same(state, before)) after ??= state;
        const kind = same(state, before) ? 'previous night' : same(state, after!) ? 'new night' : 'MIXED';
        outcomes.push(`${point}: ${kind}`);
        expect(kind, `${point}: ${JSON.stringify(state)}`).not.toBe('MIXED');
      }
      console.log(`kills: ${outcomes.join(', ')}`);
      expect(outcomes.filter((o) => o.endsWith('previous night')).length).toBeGreaterThanOrEqual(5);
      const done = await runNode(['--import', tsx, helper('lakeExporter.ts'), path, JSON.stringify(lake)], { timeoutMs: 240_000 });
      expect(done.code, done.stderr).toBe(0);
      // A killed export that had committed left exactly the night the complete one leaves.
      const final = await readOnce();
      if (after) expect(same(final, after)).toBe(true);
    } finally {
      h.warehouse = await openWarehouse(path);
    }
    const copy = await readLakeElsewhere(lake);
    try {
      expect(differing(await lakeDifferences(h.warehouse, copy.file))).toEqual({});
    } finally {
      copy.close();
    }
    expect(existsSync(path)).toBe(true);
  }, 900_000);
});
