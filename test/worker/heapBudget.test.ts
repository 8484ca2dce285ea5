import { describe, expect, it } from 'vitest';
import { startHeapBudget } from '../../worker/heapBudget.ts';
import type { Logger } from '../../worker/logger.ts';

describe('heap budget', () => {
  it('runs full collections once the used heap passes the budget, and none with budget 0', async () => {
    const seen: Record<string, unknown>[] = [];
    const logger = { debug: (fields: Record<string, unknown>) => seen.push(fields) } as unknown as Logger;
    startHeapBudget(0, logger, 5)();
    const stop = startHeapBudget(1, logger, 5); // 1 MB: always over budget
    await new Promise((resolve) => setTimeout(resolve, 60));
    stop();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ budgetMb: 1, collections: 1 });
  });
});
