// The long crash/fault campaign: `npm run campaign` (knobs below, as environment variables).
// Prints kills, server restarts, faults injected, rows expected/found, lost, duplicated.
import { formatReport, runCampaign } from '../test/reliability/campaign.ts';
import type { WorldSizeName } from '../tools/simulator/index.ts';

const env = process.env;
const num = (name: string, fallback: number) => (env[name] === undefined ? fallback : Number(env[name]));

const report = await runCampaign({
  size: (env.CAMPAIGN_SIZE as WorldSizeName | undefined) ?? 'tiny',
  seed: num('CAMPAIGN_SEED', 11),
  kills: num('CAMPAIGN_KILLS', 30),
  serverRestarts: num('CAMPAIGN_SERVER_RESTARTS', 3),
  faultRate: num('CAMPAIGN_FAULT_RATE', 0.08),
  killEveryMs: [num('CAMPAIGN_KILL_MIN_MS', 1000), num('CAMPAIGN_KILL_MAX_MS', 5000)],
  advanceSteps: num('CAMPAIGN_ADVANCE_STEPS', 50),
  drift: env.CAMPAIGN_DRIFT === '1',
  log: (line) => console.error(`campaign: ${line}`),
});
console.log(formatReport(report));
for (const t of report.tables.filter((x) => x.lost || x.duplicated)) console.log(`  ${t.table}: lost ${t.lost}, duplicated ${t.duplicated}: ${t.examples.join(' | ')}`);
process.exitCode = report.lost || report.duplicated || report.secretLeaks.length ? 1 : 0;
