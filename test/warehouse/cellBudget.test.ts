import { afterEach, describe, expect, it } from 'vitest';
import { CellBudget } from '../../activities/sync/cellBudget.ts';
import { expectExact, firstChainId, startHarness, type Harness } from './harness.ts';

/** A budget that remembers the most cells it ever held. */
class Watched extends CellBudget {
  peak = 0;
  /** Times a batch found the budget spent (it then commits what it holds, and waits if that is not enough). */
  found = 0;
  override add(delta: number): void {
    super.add(delta);
    this.peak = Math.max(this.peak, this.cells);
  }
  override get spent(): boolean {
    const spent = super.spent;
    if (spent) this.found += 1;
    return spent;
  }
}

describe('CellBudget', () => {
  it('waits while the budget is spent and wakes every waiter once cells are released', async () => {
    const b = new CellBudget(100);
    b.add(60);
    await b.room(); // room: resolves at once
    b.add(50);
    expect(b.spent).toBe(true);
    let woke = 0;
    const waiting = [b.room().then(() => (woke += 1)), b.room().then(() => (woke += 1))];
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(0);
    b.add(-50);
    await Promise.all(waiting);
    expect(woke).toBe(2);
    expect(() => new CellBudget(0)).toThrow(/cell budget 0: expected a positive number/);
  });
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the in-flight cell budget of the sync core', () => {
  // Four partitions walked at once, each batch allowed far more than the budget: the batches commit
  // what they hold and wait, the cells held at once stay near the budget, and nothing is lost.
  it('keeps the cells held by every batch in flight near the budget, and the warehouse exact', async () => {
    const budget = new Watched(3_000);
    h = await startHarness({
      sim: { size: { evmBlocks: 2_000 } },
      config: (sim) => ({ streams: ['evm.blocks', 'evm.transactions'], evmChains: [{ chainId: firstChainId(sim) }] }),
      pageSize: 25,
      core: { cellBudget: budget },
    });
    const harness = h;
    const partitions = await harness.core.planPartitions({});
    const run = { mode: 'backfill' as const, runId: 'b1', snapshotAt: 1_800_000_000 };
    await Promise.all(
      partitions.map(async (partition) => {
        for (;;) if ((await harness.core.syncBatch({ partition, maxPages: 1_000, ...run })).done) return;
      }),
    );
    await expectExact(harness, partitions, 1_800_000_000);
    expect(budget.found).toBeGreaterThan(0);
    expect(budget.cells).toBe(0);
    // Soft bound: a page per partition in flight past the budget (a page of 25 transactions is under 1,000 cells).
    expect(budget.peak).toBeLessThan(3_000 + partitions.length * 1_000);
  }, 300_000);
});
