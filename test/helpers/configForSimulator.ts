// Writes the demo's config for a running simulator (`glacier-etl simulator`), so backfill, sync and
// verify can be run against it from the command line:
//   npx tsx test/helpers/configForSimulator.ts <data-api-url> <metrics-url> <data-dir> > config.yaml
import { stringify as toYaml } from 'yaml';
import { configForWorld } from '../../cli/demoConfig.ts';
import type { WorldDescription } from '../../tools/simulator/index.ts';

const [baseUrl, metricsUrl, dataDir] = process.argv.slice(2);
if (!baseUrl || !metricsUrl || !dataDir) {
  process.stderr.write('usage: configForSimulator.ts <data-api-url> <metrics-url> <data-dir>\n');
  process.exit(2);
}
const world = (await (await fetch(new URL('/admin/describe', baseUrl))).json()) as WorldDescription;
process.stdout.write(toYaml(configForWorld(world, { baseUrl, metricsUrl, dataDir })));
