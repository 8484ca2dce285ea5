/**
 * A reader of the lake in its own process that keeps it attached: prints one line per read, each the
 * row count and a hash of every row of every table named, all read in one statement (one snapshot).
 *   node --import tsx test/helpers/lakeWatcher.ts '<LakeSettings JSON>' <table,table,...> <mode> [stop file]
 * mode `once`: one read. `watch`: reads every 50 ms until the stop file exists. `hold`: opens a
 * transaction, reads, waits for the stop file, reads again in the same transaction.
 * Prints `ready` once attached.
 */
import { existsSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { attachLake } from '../../activities/lake/lake.ts';
import { type LakeSettings } from '../../activities/lake/settings.ts';

const [settings, tableList, mode, stop] = process.argv.slice(2);
const tables = tableList.split(',');
const connection = await (await DuckDBInstance.create(':memory:')).connect();
await attachLake(connection, JSON.parse(settings) as LakeSettings, { readOnly: true });
const sql = `SELECT ${tables.map((t, i) => `(SELECT count(*)::VARCHAR || ':' || coalesce(sum(hash(x)), 0)::VARCHAR FROM lake."${t}" AS x) AS t${i}`).join(', ')}`;
const read = async () => {
  const [row] = (await connection.runAndReadAll(sql)).getRowObjectsJS();
  process.stdout.write(`${JSON.stringify(Object.fromEntries(tables.map((t, i) => [t, String(row[`t${i}`])])))}\n`);
};
const stopped = () => stop !== undefined && existsSync(stop);
process.stdout.write('ready\n');
if (mode === 'once') await read();
else if (mode === 'watch') {
  while (!stopped()) {
    // A read may meet the writer's commit ("database is locked"): an analyst's retry, not a state.
    await read().catch((error: Error) => process.stdout.write(`${JSON.stringify({ error: error.message.split('\n')[0] })}\n`));
    await new Promise((r) => setTimeout(r, 50));
  }
} else {
  await connection.run('BEGIN TRANSACTION');
  await read();
  while (!stopped()) await new Promise((r) => setTimeout(r, 50));
  await read();
  await connection.run('COMMIT');
}
