/**
 * The export in a process of its own, to be killed: opens the warehouse file, exports the lake and
 * prints the result; at step `killAt` (activities/lake/export.ts ExportStep) it SIGKILLs itself.
 *   node --import tsx test/helpers/lakeExporter.ts <warehouse.duckdb> '<LakeSettings JSON>' [killAt] [shard]
 */
import { allTables } from '../../activities/streams/catalog.ts';
import { exportLake } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';

const [path, settings, killAt, shard] = process.argv.slice(2);
const warehouse = await openWarehouse(path);
const result = await exportLake(warehouse, allTables(), JSON.parse(settings) as LakeSettings, {
  ...(shard ? { shard } : {}),
  hook: (step) => {
    process.stdout.write(`step ${step}\n`);
    if (step === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write(`${JSON.stringify(result)}\n`);
await warehouse.close();
