/**
 * The cells (rows x columns) the sync core holds in memory across every partition in flight: pages
 * extracted into column vectors and not yet committed, and those being committed. A batch commits at
 * COMMIT_MAX_CELLS, so without this bound the worker's heap followed how many batches were full at
 * once: up to 16 activities of 250,000 cells, reached only once every partition walks a long history
 * (the demo's world never filled them; at 10x and 100x its heap held 300+ MB of batches waiting for
 * the one DuckDB writer: `npm run bench:scale -- --trace`). With it, a batch that finds the budget
 * spent commits what it holds and waits for room before it fetches another page: the writer is the
 * bottleneck then, so fetching more would only queue more rows.
 *
 * Soft: a batch past the wait adds at least a page, so the bound can be overshot by a page per
 * partition in flight. Deadlock-free: a batch waits only once it holds nothing, and every commit
 * in progress releases what it held.
 */
export class CellBudget {
  private held = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!(max > 0)) throw new Error(`cell budget ${max}: expected a positive number`);
  }

  /** Cells held now (tests, logs). */
  get cells(): number {
    return this.held;
  }

  /** True when held cells have reached the budget: a batch should commit what it has and wait(). */
  get spent(): boolean {
    return this.held >= this.max;
  }

  /** `delta` more cells held (negative: released); wakes the waiters once there is room. */
  add(delta: number): void {
    this.held = Math.max(0, this.held + delta);
    if (this.held < this.max) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once held cells are under the budget (at once when they are). */
  room(): Promise<void> {
    if (this.held < this.max) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The worker-wide budget: four full batches (COMMIT_MAX_CELLS each), about 80 MB of heap at most. */
export const IN_FLIGHT_MAX_CELLS = 1_000_000;
