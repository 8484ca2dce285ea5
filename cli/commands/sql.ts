import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { DuckDBConnection } from '@duckdb/node-api';
import { configFor } from '../globalConfig.ts';
import { UserError } from '../userError.ts';
import { lakeOf, warehousePath } from '../../worker/paths.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';

/**
 * Opens the warehouse read-only, with the lake attached as `lake`. When a worker holds the file
 * (DuckDB has one writing process), or with shards (each shard's rows are in its own file, all of
 * them in the lake), the lake alone, as the default database: the last exported night, read while
 * the worker runs and exports.
 */
async function openForQuery(config: { dataDir: string; shards: string[]; lake: Partial<LakeSettings> }): Promise<{ connection: DuckDBConnection; source: string }> {
  const [{ DuckDBInstance }, { attachLake, catalogOf }, { lakeNamespace, lakeWhere, LakeError }] = await Promise.all([import('@duckdb/node-api'), import('../../activities/lake/lake.ts'), import('../../activities/lake/settings.ts')]);
  const lake = lakeOf(config);
  // An Iceberg catalog is a server: asked, not looked for.
  const catalog = lake.format === 'ducklake' ? catalogOf(lake.catalog) : undefined;
  const lakeExists = !catalog || catalog.kind === 'postgres' || existsSync(catalog.target);
  const attach = async (connection: DuckDBConnection) => {
    try {
      await attachLake(connection, lake, { readOnly: true });
    } catch (error) {
      throw new UserError(error instanceof LakeError ? error.message : `lake: ${String(error)}`);
    }
  };
  const file = warehousePath(config.dataDir);
  if (config.shards.length === 0 && existsSync(file)) {
    try {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      if (lakeExists) await attach(connection);
      return { connection, source: lakeExists ? `${file} (the lake attached as lake)` : file };
    } catch (error) {
      if (!/lock/i.test((error as Error).message)) throw error;
    }
  }
  if (!lakeExists) throw new UserError(`no lake at ${lakeWhere(lake)}: run backfill (or export) first`);
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  await attach(connection);
  await connection.run(`USE lake.${lakeNamespace(lake)}`);
  return { connection, source: `the lake ${lakeWhere(lake)}${config.shards.length ? ` (shards ${config.shards.join(', ')})` : ' (the warehouse file is in use by a worker)'}` };
}

function formatTable(columns: string[], rows: Record<string, unknown>[]): string {
  const cells = rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? 'NULL' : typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c]))));
  const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((row) => row[i].length))));
  const line = (values: string[]) => values.map((v, i) => v.slice(0, widths[i]).padEnd(widths[i])).join(' | ');
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.map(line)].join('\n');
}

export function registerSqlCommand(program: Command): void {
  program
    .command('sql')
    .description('run SQL against the warehouse (read-only) with the lake attached as lake, or the lake alone while a worker holds the warehouse')
    .argument('[query]', 'SQL text (or use --file)')
    .option('-f, --file <path>', 'read the query from a file (e.g. sql/examples/*.sql)')
    .option('--json', 'print rows as JSON')
    .action(async (query: string | undefined, opts: { file?: string; json?: boolean }, command: Command) => {
      const config = await configFor(command);
      const text = opts.file ? readFileSync(opts.file, 'utf8') : query;
      if (!text?.trim()) throw new UserError('sql: give a query or --file <path>');
      const { connection, source } = await openForQuery(config);
      try {
        const reader = await connection.runAndReadAll(text).catch((error: Error) => {
          throw new UserError(`sql: ${error.message.split('\n')[0]}`);
        });
        const rows = reader.getRowObjectsJson() as Record<string, unknown>[];
        if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        else process.stdout.write(`${formatTable(reader.columnNames(), rows)}\n(${rows.length} rows from ${source})\n`);
      } finally {
        connection.closeSync();
      }
    });
}
