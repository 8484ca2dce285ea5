import { describe, expect, it } from 'vitest';
import { formatReport, runCampaign } from './campaign.ts';

describe('crash and fault campaign (CI size)', () => {
  it('backfill + sync under 10 worker SIGKILLs, a server restart and every fault kind equals ground truth (latest snapshot views included, some emptied), and leaks no key', async () => {
    const report = await runCampaign({ size: 'tiny', seed: 3, kills: 10, serverRestarts: 1, faultRate: 0.04, killEveryMs: [1500, 4000], advanceSteps: 20, log: (l) => console.log(`campaign: ${l}`) });
    console.log(formatReport(report));
    expect(report.kills).toBeGreaterThanOrEqual(10);
    expect(report.serverRestarts).toBeGreaterThanOrEqual(1);
    for (const [kind, n] of Object.entries(report.faultsInjected)) expect(n, `fault ${kind} never injected`).toBeGreaterThan(0);
    expect(report.rowsExpected).toBeGreaterThan(1000);
    // The sync's growth empties snapshots, and the latest views are part of the comparison.
    expect(report.emptiedSnapshots.length).toBeGreaterThan(0);
    expect(report.tables.filter((t) => t.table.endsWith('_latest')).length).toBeGreaterThanOrEqual(5);
    const bad = report.tables.filter((t) => t.lost || t.duplicated);
    expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
    expect(report.lost).toBe(0);
    expect(report.duplicated).toBe(0);
    expect(report.secretLeaks).toEqual([]);
  }, 900_000);
});
