/**
 * A reader of the lake that is not the worker: a fresh DuckDB process attaches the catalog read-only
 * (activities/lake/lake.ts attachLake, as `glacier-etl sql` and an analyst do) and copies every lake
 * table, as `SELECT *` returns it, into a DuckDB file the test then compares with the warehouse.
 *   node --import tsx test/helpers/lakeReader.ts '<LakeSettings JSON>' <out.duckdb> [snapshot]
 * All tables are read in one transaction: one snapshot of the lake.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { attachLake } from '../../activities/lake/lake.ts';
import { type LakeSettings } from '../../activities/lake/settings.ts';

const [settings, out, snapshot] = process.argv.slice(2);
const connection = await (await DuckDBInstance.create(':memory:')).connect();
await attachLake(connection, JSON.parse(settings) as LakeSettings, { readOnly: true, ...(snapshot ? { snapshot: Number(snapshot) } : {}) });
await connection.run(`ATTACH '${out.replaceAll("'", "''")}' AS copy`);
await connection.run('BEGIN TRANSACTION');
const tables = (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake' AND schema_name = 'main'")).getRowObjectsJS().map((r) => String(r.table_name));
for (const t of tables) await connection.run(`CREATE TABLE copy.main."${t}" AS SELECT * FROM lake.main."${t}" ORDER BY ALL`);
await connection.run('COMMIT');
process.stdout.write(`${JSON.stringify({ tables })}\n`);
