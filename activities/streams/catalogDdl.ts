import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDdl } from '../warehouse/renderDdl.ts';
import { SQL_DIR } from '../warehouse/sqlFile.ts';
import { allTables } from './catalog.ts';

/**
 * The DDL of every table of the stream catalog: sql/schema/010_tables.sql is this output (a test
 * compares them). Regenerate with `npx tsx activities/streams/catalogDdl.ts`.
 */
export const catalogDdl = (): string => renderDdl(allTables());

export const TABLES_DDL_FILE = 'schema/010_tables.sql';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(new URL(TABLES_DDL_FILE, SQL_DIR), catalogDdl());
  console.log(`wrote sql/${TABLES_DDL_FILE}`);
}
