/**
 * Puts the DuckDB extensions the lake uses into the per-user cache (activities/warehouse/extensions.ts:
 * DuckDB's repository first, then PyPI's wheel of the same version) and prints where they are.
 * `.ci/run` and `npm run tools` call it; the worker, `sql` and the tests do the same on first use.
 *   npx tsx scripts/install-duckdb-extensions.ts [ducklake sqlite_scanner httpfs aws ...]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { extensionDirectory, loadExtensions, type DuckDBExtension } from '../activities/warehouse/extensions.ts';

const names = (process.argv.length > 2 ? process.argv.slice(2) : ['ducklake', 'sqlite_scanner', 'httpfs', 'aws', 'avro', 'iceberg']) as DuckDBExtension[];
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await loadExtensions(connection, names);
const rows = (await connection.runAndReadAll(`SELECT extension_name, extension_version FROM duckdb_extensions() WHERE loaded AND extension_name IN (${names.map((n) => `'${n}'`).join(', ')})`)).getRowObjectsJS();
console.log(`duckdb extensions in ${extensionDirectory()}: ${rows.map((r) => `${String(r.extension_name)} ${String(r.extension_version)}`).join(', ')}`);
connection.closeSync();
instance.closeSync();
