import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { DuckDBConnection } from '@duckdb/node-api';
import { configFor } from '../globalConfig.ts';
import { UserError } from '../userError.ts';
import { lakeDirOf, warehousePath } from '../../worker/paths.ts';

/**
 * Opens the warehouse read-only. When a worker holds the file (DuckDB has one writing process),
 * falls back to views over the exported Parquet, so analysts can always query the last export.
 * Sharded: always the lake, where every shard's files together are the whole warehouse.
 */
async function openForQuery(config: { dataDir: string; lakeDir?: string; shards: string[] }): Promise<{ connection: DuckDBConnection; source: string }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const file = warehousePath(config.dataDir);
  const sharded = config.shards.length > 0;
  if (!sharded && existsSync(file)) {
    try {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      return { connection: await instance.connect(), source: file };
    } catch (error) {
      if (!/lock/i.test((error as Error).message)) throw error;
    }
  }
  const dir = lakeDirOf(config);
  if (!existsSync(dir)) throw new UserError(sharded ? `no Parquet lake at ${dir}: run backfill (or export) first` : `no warehouse at ${file} and no Parquet export at ${dir}: run backfill first`);
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  // Each table's link is resolved once: every view reads one whole generation, even if an export
  // publishes the next one while the session runs (the previous generation stays until the swap after).
  // Tables whose spends and rewards live in lake-only tables read them back joined (lakeViews.ts).
  // Loaded here, not at the top: `--help` and the other commands load no catalog, DuckDB or schema code (compiledCli.test.ts).
  const [{ allTables }, { lakeTables }, { createLakeViews }] = await Promise.all([
    import('../../activities/streams/catalog.ts'),
    import('../../activities/warehouse/export.ts'),
    import('../../activities/warehouse/lakeViews.ts'),
  ]);
  await createLakeViews(connection, dir, lakeTables(allTables()));
  return { connection, source: sharded ? `${dir} (Parquet lake of shards ${config.shards.join(', ')})` : `${dir} (Parquet export; the warehouse file is in use by a worker)` };
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
    .description('run SQL against the warehouse (read-only), or the Parquet export while a worker holds it')
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
