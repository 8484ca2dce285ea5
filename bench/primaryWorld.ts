/**
 * Primary-network world generation cost per size preset (time and heap), and the cost of the first
 * full validators list (BLS credentials are computed on first use). Run: npx tsx bench/primaryWorld.ts [sizes...]
 */
import { PrimaryWorld } from '../tools/simulator/primary/primaryWorld.ts';
import { listValidators, validatorJsonText, validatorSet } from '../tools/simulator/primary/validatorQuery.ts';
import { WORLD_SIZES, type WorldSizeName } from '../tools/simulator/world/size.ts';

const sizes = (process.argv.slice(2) as WorldSizeName[]).filter((s) => s in WORLD_SIZES);
for (const size of sizes.length > 0 ? sizes : (['tiny', 'small'] as WorldSizeName[])) {
  const t0 = performance.now();
  const gen = new PrimaryWorld(1, WORLD_SIZES[size]).network('mainnet');
  const t1 = performance.now();
  const { items } = listValidators(gen, { nodeIds: [], sortBy: 'blockIndex', sortOrder: 'desc', minUptimePerformance: 0, maxUptimePerformance: 100 });
  const json = items.map((v) => validatorJsonText(v, validatorSet(gen.validations, gen.now))).join(',');
  const t2 = performance.now();
  const counts = gen.describe().counts as Record<string, unknown>;
  console.log(
    `${size}: generate ${(t1 - t0).toFixed(0)} ms, first validators list ${(t2 - t1).toFixed(0)} ms (${items.length} validators, ${json.length} bytes),`,
    `heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
    JSON.stringify(counts),
  );
}
