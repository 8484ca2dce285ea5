// Compares every *_latest snapshot view of a warehouse with what a running simulator answers now
// (its ground truth, through the same normalizers), and lists the snapshots that became empty.
//   npx tsx test/helpers/latestAgainstApi.ts <data-api-url> <metrics-url> <config.yaml>
import { createSyncCore } from '../../activities/sync/index.ts';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { loadConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';
import { warehousePath } from '../../worker/paths.ts';
import { compareWithTruth, remoteTruthSource, truthClient } from './truthTables.ts';

const [baseUrl, metricsUrl, configPath] = process.argv.slice(2);
if (!baseUrl || !metricsUrl || !configPath) {
  process.stderr.write('usage: latestAgainstApi.ts <data-api-url> <metrics-url> <config.yaml>\n');
  process.exit(2);
}
const config = loadConfig(configPath);
const source = remoteTruthSource(baseUrl, metricsUrl);
const warehouse = await openWarehouse(warehousePath(config.dataDir));
try {
  const core = createSyncCore({ client: truthClient(source), warehouse, config, logger: createLogger({ level: 'silent' }) });
  const partitions = [...(await core.planPartitions({})), ...(await core.planPartitions({ discovered: true }))];
  const [{ snapshot_at }] = await warehouse.query('SELECT max(snapshot_at) AS snapshot_at FROM _glacier_snapshot_walks');
  const snapshotAt = Number(snapshot_at);
  // Walks whose previous walk of the same partition found rows and whose last one found none.
  const emptied = await warehouse.query(`
    SELECT stream, partition_id, rows, prev_rows FROM (
      SELECT stream, partition_id, snapshot_at, rows, lag(rows) OVER (PARTITION BY stream, partition_id ORDER BY snapshot_at) AS prev_rows,
             snapshot_at = max(snapshot_at) OVER (PARTITION BY stream, partition_id) AS last
      FROM _glacier_snapshot_walks)
    WHERE last AND prev_rows > rows ORDER BY ALL`);
  console.log(`snapshot walks whose row count fell at the last walk (snapshot ${snapshotAt}):`);
  for (const e of emptied) console.log(`  ${e.partition_id}: ${e.prev_rows} -> ${e.rows} rows`);
  const compared = await compareWithTruth(source, warehouse, partitions, { snapshotAt, latest: true });
  let bad = 0;
  for (const c of compared) {
    bad += c.lost + c.duplicated;
    console.log(`${c.table}: API ${c.expected} rows, view ${c.found}, lost ${c.lost}, unexpected ${c.duplicated}${c.examples.length ? `: ${c.examples.join(' | ')}` : ''}`);
  }
  console.log(bad ? `latest views DIFFER from the API (${bad} rows)` : 'latest views equal the API');
  process.exitCode = bad ? 1 : 0;
} finally {
  await warehouse.close();
}
